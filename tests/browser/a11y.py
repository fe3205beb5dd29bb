"""Accessibility checks the browser tests run on a page (WCAG 2.1 AA): axe-core from npm
(package-lock.json pins it), the focus ring's contrast against the surface it is drawn on,
tap target sizes, one <h1>, and where focus is."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("critical", "serious")
MIN_TARGET = 44
MIN_RING_CONTRAST = 3.0


@cache
def axe_source() -> str:
    if not AXE.exists():
        from tests.conftest import require_service

        require_service("axe-core (npm ci)")
    return AXE.read_text(encoding="utf-8")


def with_axe(context: Any) -> Any:
    """Every page of the context gets axe-core before its own scripts (an init script is
    not a page script, so the CSP does not block it)."""
    context.add_init_script(script=axe_source())
    return context


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """The critical and serious violations on the page as it is, one line per rule."""
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ['violations']});
          return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
        }"""
    )
    return [v for v in found if v["impact"] in BLOCKING]


# Colour maths of WCAG 2.1 (relative luminance, contrast ratio) and the colour behind an
# element: the first opaque background up its ancestors (a gradient counts as its first
# colour stop), over the page's white.
_COLOUR_JS = """
const parse = (c) => {
  const m = c && c.match(/rgba?\\(([^)]+)\\)/);
  if (!m) return null;
  const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
  return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
};
const lum = (c) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
};
const ratio = (x, y) => { const a = lum(x), b = lum(y); return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); };
const ownBackground = (el) => {
  const s = getComputedStyle(el);
  const c = parse(s.backgroundColor);
  if (c && c.a >= 0.5) return c;
  const g = s.backgroundImage.match(/rgba?\\([^)]+\\)/);
  return g ? parse(g[0]) : null;
};
const surface = (el) => {
  for (let e = el; e; e = e.parentElement) {
    const c = ownBackground(e);
    if (c) return c;
  }
  return {r: 255, g: 255, b: 255, a: 1};
};
const visible = (el) => {
  const r = el.getBoundingClientRect();
  const s = getComputedStyle(el);
  return r.width > 1 && r.height > 1 && s.visibility !== 'hidden' && s.display !== 'none' && !el.closest('[hidden], [inert], .visually-hidden');
};
const FOCUSABLE = 'a[href], button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';
"""

FOCUS_RINGS = (
    "() => {"
    + _COLOUR_JS
    + """
  const bad = [];
  const seen = new Set();
  const els = [...document.querySelectorAll(FOCUSABLE)].filter(visible).slice(0, 400);
  for (const el of els) {
    el.focus({preventScroll: true});
    if (document.activeElement !== el) continue;
    const s = getComputedStyle(el);
    const label = el.tagName + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '') + ' «' + (el.textContent || el.value || '').trim().slice(0, 30) + '»';
    const width = parseFloat(s.outlineWidth);
    if (s.outlineStyle === 'none' || width < 2) { bad.push(label + ': no ring (' + s.outlineStyle + ' ' + s.outlineWidth + ')'); continue; }
    const ring = parse(s.outlineColor);
    // A ring drawn outside the element sits on the surface behind it, one drawn inside (a
    // negative offset) on the element's own background.
    const under = parseFloat(s.outlineOffset) < 0 && ownBackground(el) ? ownBackground(el) : surface(el.parentElement);
    const r = ratio(ring, under);
    const key = s.outlineColor + '|' + JSON.stringify(under);
    if (r < 3 && !seen.has(key)) { seen.add(key); bad.push(label + ': ' + r.toFixed(2) + ':1 (' + s.outlineColor + ' on rgb(' + under.r + ',' + under.g + ',' + under.b + '))'); }
  }
  if (document.activeElement) document.activeElement.blur();
  return bad;
}"""
)

SMALL_TARGETS = (
    "(scope) => {"
    + _COLOUR_JS
    + """
  // Controls: every button, field and menu, and the links that act as controls (navigation,
  // tabs, buttons drawn as links); a link inside running text is not a target of its own.
  const CONTROLS = 'button, input:not([type=hidden]), select, textarea, summary, [role=button], a.btn, a.rbtn, nav a, .tabs a, .topbar a, .refbar a';
  const root = scope ? document.querySelector(scope) : document;
  const bad = [];
  for (const el of root.querySelectorAll(CONTROLS)) {
    if (!visible(el)) continue;
    let r = el.getBoundingClientRect();
    // A checkbox or radio inside its label: the label is the target.
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) r = el.closest('label').getBoundingClientRect();
    if (r.width < 44 - 0.5 || r.height < 44 - 0.5) bad.push(el.tagName + '.' + String(el.className).split(' ').join('.') + ' «' + (el.textContent || el.value || el.getAttribute('aria-label') || '').trim().slice(0, 30) + '» ' + Math.round(r.width) + '×' + Math.round(r.height));
  }
  return bad;
}"""
)

HEADINGS = """() => ({title: document.title.trim(), h1: [...document.querySelectorAll('h1')].map(h => h.textContent.trim())})"""

ACTIVE = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  return {tag: el.tagName, action: el.getAttribute('data-action'), n: el.getAttribute('data-n'),
          text: (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 60)};
}"""


def focus_rings(page: Any) -> list[str]:
    return page.evaluate(FOCUS_RINGS)


def small_targets(page: Any, scope: str | None = None) -> list[str]:
    return page.evaluate(SMALL_TARGETS, scope)


def headings(page: Any) -> dict[str, Any]:
    return page.evaluate(HEADINGS)


def active(page: Any) -> dict[str, Any] | None:
    return page.evaluate(ACTIVE)

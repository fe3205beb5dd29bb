/* The JSON API of one match: a POST answers {status, data} or throws when the network fails. */

function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (m) {
    return decodeURIComponent(m[1]);
  }
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.getAttribute("content") : "";
}

// The answers' words (the board, the entry) in the page's language, whatever the phone's
// Accept-Language says: the pages are Russian until someone presses EN, the API follows the
// header it is sent.
const LANGUAGE = document.documentElement.lang || "ru";

export async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      "Accept-Language": LANGUAGE,
      "X-CSRFToken": csrfToken(),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    data = null;
  }
  return { status: response.status, data };
}

export async function get(url) {
  const r = await fetch(url, {
    credentials: "same-origin",
    headers: { Accept: "application/json", "Accept-Language": LANGUAGE },
    cache: "no-cache",
  });
  return r.ok ? r.json() : null;
}

/* The match inside a write's answer (201/200: {match}, 409: {current} or the match itself). */
export function matchFrom(body) {
  if (!body) {
    return null;
  }
  if (body.match && body.match.state) {
    return body.match;
  }
  if (body.current && body.current.state) {
    return body.current;
  }
  if (body.params && body.params.current && body.params.current.state) {
    return body.params.current;
  }
  return body.state ? body : null;
}

"""The referee's face: his home (every match he may score now), the scoring form and its
offline pieces (service worker, manifest)."""

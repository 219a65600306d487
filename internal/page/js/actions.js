// actions.js: actionability checks and interaction helpers (electron_click, type, drag, …).

// install.js closes the bundle: the API goes on window under a
// Symbol.for key, non-enumerable, non-writable and non-configurable, so the
// page cannot see it by enumeration nor replace it.
  var api = Object.freeze({ op: op, resolve: resolve });
  Object.defineProperty(window, KEY, { value: api, enumerable: false, writable: false, configurable: false });
})();

// prelude.js opens the walker bundle. The Go side concatenates, in order,
// prelude.js, dom.js, roles.js, name.js, state.js, walk.js, registry.js,
// render.js, diff.js, ops.js and install.js, and replaces __UNDERSTUDY_KEY__
// with a key that names this build of the bundle. Everything below lives in
// one closure: nothing is written into the page except one non-enumerable,
// non-writable property of window (see install.js).
(function () {
  'use strict';
  var KEY = Symbol.for('__UNDERSTUDY_KEY__');
  if (Object.prototype.hasOwnProperty.call(window, KEY)) return;

  // Natives captured at install time, so a page that replaces them later
  // cannot change what the walker sees.
  var _Map = Map, _Set = Set, _WeakMap = WeakMap, _WeakRef = window.WeakRef;
  var _getComputedStyle = window.getComputedStyle.bind(window);
  var _JSON = JSON;

// wait.js: waits and expectations polled inside the renderer in one bounded call.

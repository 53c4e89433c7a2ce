// Web push on the settings page: registers the service worker (/sw.js, scope /) and, on
// "Turn on notifications in this browser", subscribes this browser with the server's VAPID
// key (the form's data-key) and posts the subscription with the page's CSRF token (the
// form's own hidden field) to /settings/push/subscribe. No inline script: the CSP forbids it.
(function () {
  "use strict";
  var form = document.getElementById("push-subscribe");
  if (!form) {
    return;
  }
  var status = document.getElementById("push-status");
  function say(text) {
    if (status) {
      status.textContent = text;
    }
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say(
      window.isSecureContext
        ? "This browser cannot receive push notifications."
        : "Browsers allow notifications only on a site served over HTTPS."
    );
    return;
  }
  var registered = navigator.serviceWorker
    .register("/sw.js", { scope: "/" })
    .then(function () {
      return navigator.serviceWorker.ready;
    });
  registered.catch(function (error) {
    say("The service worker did not register: " + error.message);
  });

  // base64url text as bytes (the key), and bytes as base64url text (the subscription's keys).
  function bytes(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    var binary = atob(base64 + "===".slice((base64.length + 3) % 4));
    var out = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i += 1) {
      out[i] = binary.charCodeAt(i);
    }
    return out;
  }
  function text(buffer) {
    var view = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < view.length; i += 1) {
      binary += String.fromCharCode(view[i]);
    }
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function keysOf(subscription) {
    var json = subscription.toJSON ? subscription.toJSON() : {};
    if (json.keys && json.keys.p256dh && json.keys.auth) {
      return json.keys;
    }
    return {
      p256dh: text(subscription.getKey("p256dh")),
      auth: text(subscription.getKey("auth")),
    };
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    say("Asking this browser…");
    registered
      .then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: bytes(form.getAttribute("data-key")),
        });
      })
      .then(function (subscription) {
        var keys = keysOf(subscription);
        form.elements.endpoint.value = subscription.endpoint;
        form.elements.p256dh.value = keys.p256dh;
        form.elements.auth.value = keys.auth;
        // submit() sends the form without this handler again.
        form.submit();
      })
      .catch(function (error) {
        say("Notifications could not be turned on: " + error.message);
      });
  });
})();

// turnpost's service worker (served at /sw.js, scope /): web push only. A push carries
// {title, body, url, tag} (encrypted by the server, decrypted by the browser); it is shown as
// a notification, and a click focuses a tab already on its page or opens one.
"use strict";

self.addEventListener("push", function (event) {
  var data = {};
  if (event.data) {
    try {
      data = event.data.json();
    } catch (error) {
      data = { body: event.data.text() };
    }
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "turnpost", {
      body: data.body || "",
      // One notification per game: the newest replaces the one before.
      tag: data.tag || undefined,
      icon: "/assets/favicon.svg",
      data: { url: data.url || "/" },
    })
  );
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  // Absolute, as a window's url is: "/games/5" would never equal one.
  var url = new URL(
    (event.notification.data && event.notification.data.url) || "/",
    self.location.origin
  ).href;
  event.waitUntil(
    self.clients
      .matchAll({ type: "window", includeUncontrolled: true })
      .then(function (windows) {
        for (var i = 0; i < windows.length; i += 1) {
          if (windows[i].url === url && "focus" in windows[i]) {
            return windows[i].focus();
          }
        }
        return self.clients.openWindow(url);
      })
  );
});

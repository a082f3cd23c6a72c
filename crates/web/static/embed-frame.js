// Runs in a Signet signer page shown in a frame of an origin the organisation allows
// (/embed/w/...): tells that origin, and only that origin, what happened on the page, and how
// tall the page is so that the frame can fit it. Messages are objects
// { source: "signet", type, reason?, height? } with type one of loaded, signed, declined,
// error (reason: closed, expired, failed) and resize; the <signet-signing> element
// (/static/signet-signing.js) turns them into events.
(function () {
  "use strict";
  const meta = (name) => {
    const tag = document.querySelector(`meta[name="signet-embed-${name}"]`);
    return tag ? tag.getAttribute("content") : null;
  };
  const origin = meta("origin");
  if (!origin || window.parent === window) return;
  const post = (message) => window.parent.postMessage(Object.assign({ source: "signet" }, message), origin);
  const type = meta("event") || "loaded";
  const reason = meta("reason");
  post(reason ? { type, reason } : { type });
  let last = 0;
  const size = () => {
    const height = Math.ceil(document.documentElement.scrollHeight);
    if (height !== last) {
      last = height;
      post({ type: "resize", height });
    }
  };
  size();
  if (typeof ResizeObserver === "function") new ResizeObserver(size).observe(document.documentElement);
  window.addEventListener("load", size);
})();

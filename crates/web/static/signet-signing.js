// <signet-signing src="EMBED URL"></signet-signing>: a signer's turn from Signet inside an
// integrator's own page. The embed URL comes from Signet's API
// (POST /api/v1/workflows/{workflowId}/signatories/{signatoryId}/embed with this page's origin).
//
// The element shows the signer page in a frame that fits its height, and emits the page's
// events as CustomEvents on itself (they bubble): "loaded" (a page of the turn is shown),
// "signed", "declined" and "error" (detail.reason: "closed", "expired", "failed", or
// "unreachable" when the frame did not answer within `timeout` milliseconds, default 20000).
// A message counts only when it comes from this element's own frame and from the origin of its
// src: another frame, another window or another origin cannot fake an event.
(function () {
  "use strict";
  if (typeof customElements === "undefined" || customElements.get("signet-signing")) return;
  const EVENTS = ["loaded", "signed", "declined", "error"];

  class SignetSigning extends HTMLElement {
    static get observedAttributes() {
      return ["src"];
    }

    constructor() {
      super();
      this._receive = (event) => this._onMessage(event);
      this._frame = null;
      this._origin = null;
      this._timer = null;
    }

    connectedCallback() {
      window.addEventListener("message", this._receive);
      this._show();
    }

    disconnectedCallback() {
      window.removeEventListener("message", this._receive);
      clearTimeout(this._timer);
    }

    attributeChangedCallback() {
      if (this.isConnected) this._show();
    }

    _show() {
      const src = this.getAttribute("src");
      if (!src) return;
      let url;
      try {
        url = new URL(src, document.baseURI);
      } catch (_) {
        this._emit("error", { reason: "unreachable" });
        return;
      }
      if (url.protocol !== "https:" && url.protocol !== "http:") {
        this._emit("error", { reason: "unreachable" });
        return;
      }
      this._origin = url.origin;
      if (!this._frame) {
        this._frame = document.createElement("iframe");
        this._frame.title = this.getAttribute("title") || "Signing";
        this._frame.style.cssText = "display:block;width:100%;border:0;min-height:480px";
        this._frame.setAttribute("referrerpolicy", "no-referrer");
        this.appendChild(this._frame);
      }
      this._heard = false;
      this._frame.src = url.href;
      clearTimeout(this._timer);
      const timeout = Number(this.getAttribute("timeout")) || 20000;
      this._timer = setTimeout(() => {
        if (!this._heard) this._emit("error", { reason: "unreachable" });
      }, timeout);
    }

    _onMessage(event) {
      if (!this._frame || event.source !== this._frame.contentWindow || event.origin !== this._origin) return;
      const data = event.data;
      if (!data || typeof data !== "object" || data.source !== "signet" || typeof data.type !== "string") return;
      this._heard = true;
      if (data.type === "resize") {
        const height = Number(data.height);
        if (Number.isFinite(height) && height > 0) this._frame.style.height = Math.min(Math.ceil(height), 100000) + "px";
        return;
      }
      if (!EVENTS.includes(data.type)) return;
      const detail = {};
      if (typeof data.reason === "string") detail.reason = data.reason;
      this._emit(data.type, detail);
    }

    _emit(type, detail) {
      this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    }
  }

  customElements.define("signet-signing", SignetSigning);
})();

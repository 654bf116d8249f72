// Copy buttons: <button data-copy-target="ID"> copies the text of #ID and says so.
(function () {
  "use strict";

  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    }
    return fallbackCopy(text);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy-target]");
    if (!button) { return; }
    var source = document.getElementById(button.getAttribute("data-copy-target"));
    var status = document.getElementById(button.getAttribute("data-copy-status") || "");
    if (!source) { return; }
    copy(source.textContent.trim()).then(function () {
      button.textContent = "Copied";
      button.setAttribute("data-copied", "true");
      if (status) { status.textContent = "Copied to the clipboard."; }
    }, function () {
      if (status) { status.textContent = "Copying failed: select the text and copy it by hand."; }
    });
  });
})();

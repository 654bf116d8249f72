// Tables marked "cards" turn into one card per row on a phone (see gauntlet.css); each
// cell is labelled with its column's header so a card still says what each value is.
(function () {
  "use strict";
  document.querySelectorAll("table.cards").forEach(function (table) {
    var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    });
    table.querySelectorAll("tbody tr").forEach(function (row) {
      Array.prototype.forEach.call(row.children, function (cell, index) {
        if (!cell.hasAttribute("data-label")) cell.setAttribute("data-label", heads[index] || "");
      });
    });
  });
})();

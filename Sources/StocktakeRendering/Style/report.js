(function () {
  "use strict";
  var each = function (list, body) { Array.prototype.forEach.call(list, body); };
  function key(row, column, numeric) {
    var cell = row.cells[column];
    if (!cell) { return numeric ? 0 : ""; }
    var raw = cell.getAttribute("data-value");
    var text = raw === null ? cell.textContent : raw;
    return numeric ? (Number(text) || 0) : text.toLowerCase();
  }
  function sort(table, column, header) {
    var numeric = header.getAttribute("data-type") === "number";
    var current = header.getAttribute("aria-sort");
    var ascending = current ? current === "descending" : !numeric;
    var body = table.tBodies[0];
    var rows = [];
    each(body.rows, function (row, index) {
      rows.push({ row: row, key: key(row, column, numeric), index: index });
    });
    rows.sort(function (a, b) {
      var order = a.key < b.key ? -1 : (a.key > b.key ? 1 : 0);
      return (ascending ? order : -order) || a.index - b.index;
    });
    each(rows, function (item) { body.appendChild(item.row); });
    each(table.tHead.rows[0].cells, function (cell) { cell.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }
  each(document.querySelectorAll("table[data-sortable]"), function (table) {
    if (!table.tHead || !table.tBodies.length) { return; }
    each(table.tHead.rows[0].cells, function (header, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (header.firstChild) { button.appendChild(header.firstChild); }
      header.appendChild(button);
      button.addEventListener("click", function () { sort(table, column, header); });
    });
  });
  function openTree(open) {
    each(document.querySelectorAll(".tree details"), function (node) { node.open = open; });
  }
  each(document.querySelectorAll("[data-tree]"), function (button) {
    button.addEventListener("click", function () { openTree(button.getAttribute("data-tree") === "open"); });
  });
  each(document.querySelectorAll(".tools[hidden]"), function (tools) { tools.hidden = false; });
  window.addEventListener("beforeprint", function () { openTree(true); });
  // The map's caption names the tile last tapped, focused or hovered: phones show no hover titles.
  each(document.querySelectorAll(".tm-cap"), function (caption) {
    var show = function (event) {
      var tile = event.target.closest ? event.target.closest(".tm-svg a") : null;
      var title = tile ? tile.querySelector("title") : null;
      if (title) { caption.textContent = title.textContent.split("\n").slice(0, 2).join(" · "); }
    };
    caption.parentNode.addEventListener("focusin", show);
    caption.parentNode.addEventListener("mouseover", show);
  });
  document.documentElement.setAttribute("data-enhanced", "true");
})();

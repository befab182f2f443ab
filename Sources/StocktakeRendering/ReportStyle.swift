/// The page's inline style sheet and its one inline script, markup because they are literals of our own source.
/// The script is allowed by the Content-Security-Policy through its SHA-256, so its text must reach the page
/// byte for byte (the hash is taken of `script.markup`).
public enum ReportStyle {
    public static let css: HTML = """
        :root{--ink:#111827;--muted:#6b7280;--line:#e5e7eb;--soft:#f3f4f6;--page:#f6f7f9;--accent:#2563eb;\
        --warn:#b45309;color-scheme:light}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;background:var(--page);color:var(--ink);font:14px/1.5 -apple-system,BlinkMacSystemFont,\
        "Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased}
        code,.path,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:12.5px}
        .wrap{max-width:1240px;margin:0 auto;padding:0 24px}
        .masthead{background:#fff;border-bottom:1px solid var(--line);padding:28px 0 20px}
        .eyebrow{margin:0;color:var(--accent);font-weight:600;font-size:12px;letter-spacing:.08em;text-transform:uppercase}
        h1{margin:4px 0 6px;font-size:26px;line-height:1.25;font-weight:650;overflow-wrap:anywhere}
        .meta{margin:0;color:var(--muted);overflow-wrap:anywhere}
        .toc{display:flex;flex-wrap:wrap;gap:6px;margin-top:16px}
        .toc a{color:var(--ink);text-decoration:none;background:var(--soft);border:1px solid var(--line);\
        border-radius:999px;padding:3px 12px;font-size:13px}
        .toc a:hover{background:#e8eefc;border-color:#c7d5f7}
        main{padding:24px 0 8px}
        section{background:#fff;border:1px solid var(--line);border-radius:12px;padding:20px 24px;margin:0 0 20px}
        h2{margin:0 0 4px;font-size:18px;font-weight:650}
        h3{margin:18px 0 8px;font-size:14px;font-weight:650}
        .lead{margin:0 0 14px;color:var(--muted)}
        .cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(170px,1fr));gap:12px;margin-top:12px}
        .card{border:1px solid var(--line);border-radius:10px;padding:14px 16px;background:#fcfcfd}
        .card-label{color:var(--muted);font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em}
        .card-value{font-size:24px;font-weight:650;margin:2px 0;font-variant-numeric:tabular-nums}
        .card-note{color:var(--muted);font-size:12.5px}
        .card-text{font-size:14px;font-weight:500}
        .card.wide{grid-column:1/-1;display:flex;flex-wrap:wrap;gap:4px 14px;align-items:baseline;padding:10px 16px}
        dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:6px 20px;margin:8px 0 0}
        dl.facts dt{color:var(--muted)}
        dl.facts dd{margin:0;overflow-wrap:anywhere}
        ul.clues{list-style:none;margin:0;padding:0}
        ul.clues li{margin:0 0 4px}
        .chart{display:block;width:100%;height:30px;border-radius:6px;background:var(--soft);margin:8px 0 14px}
        .swatch{display:inline-block;width:11px;height:11px;border-radius:3px;margin-right:8px;vertical-align:-1px}
        table{width:100%;border-collapse:collapse;font-variant-numeric:tabular-nums}
        th,td{text-align:left;padding:7px 10px;border-bottom:1px solid var(--line);vertical-align:top}
        th{color:var(--muted);font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;\
        white-space:nowrap;border-bottom-color:#d1d5db}
        tbody tr:hover{background:#f9fafb}
        td.num,th.num{text-align:right;white-space:nowrap}
        tr.total td{font-weight:650;border-top:2px solid #d1d5db;border-bottom:0}
        tr.group td{background:var(--soft);font-weight:600}
        td.sub{padding-left:28px}
        .path{overflow-wrap:anywhere;unicode-bidi:isolate}
        .nowrap{white-space:nowrap}
        .small{font-size:12px}
        .tag{display:inline-block;font-size:11px;padding:0 6px;border-radius:4px;background:var(--soft);\
        color:#374151;border:1px solid var(--line);margin-left:6px;white-space:nowrap}
        .muted{color:var(--muted)}
        .note{color:var(--muted);font-size:12.5px;margin:10px 0 0}
        .problem{color:var(--warn)}
        .scroll{overflow-x:auto}
        th button.sort{all:unset;cursor:pointer}
        th button.sort:hover{color:var(--ink)}
        th button.sort:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
        th[aria-sort=ascending] button.sort::after{content:" \\25B2";font-size:9px}
        th[aria-sort=descending] button.sort::after{content:" \\25BC";font-size:9px}
        .tools{display:flex;gap:8px;margin:0 0 10px}
        .tools[hidden]{display:none}
        .tools button{font:inherit;font-size:12.5px;background:#fff;border:1px solid #d1d5db;border-radius:6px;\
        padding:3px 10px;cursor:pointer}
        .tools button:hover{background:var(--soft)}
        .tree{border:1px solid var(--line);border-radius:8px;padding:6px 0}
        .tree details>summary{list-style:none;cursor:pointer}
        .tree details>summary::-webkit-details-marker{display:none}
        .t-row{display:grid;grid-template-columns:minmax(0,1fr) 90px 90px 150px;gap:12px;align-items:center;\
        padding:3px 12px 3px calc(12px + var(--d,0) * 18px)}
        .t-row:hover{background:#f9fafb}
        .t-name{overflow-wrap:anywhere;unicode-bidi:isolate}
        .t-name::before{content:"";display:inline-block;width:14px;color:var(--muted);font-size:10px}
        details>summary>.t-name::before{content:"\\25B6"}
        details[open]>summary>.t-name::before{content:"\\25BC"}
        .t-items{color:var(--muted);text-align:right;font-size:12.5px;white-space:nowrap}
        .t-size{text-align:right;white-space:nowrap;font-variant-numeric:tabular-nums}
        .t-share{display:flex;align-items:center;gap:8px;font-size:12px;color:var(--muted)}
        .t-track{flex:1;height:7px;border-radius:4px;background:var(--soft);overflow:hidden}
        .t-fill{display:block;height:100%;background:var(--accent);border-radius:4px}
        .t-more{color:var(--muted);font-style:italic}
        .t-root>.t-name{font-weight:600}
        .plist{margin:6px 0 2px}
        .plist dl{display:grid;grid-template-columns:minmax(140px,max-content) minmax(0,1fr);gap:3px 18px;margin:0}
        .plist dt{font-weight:600;color:#374151;overflow-wrap:anywhere}
        .plist dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
        .plist ol{margin:0;padding-left:22px}
        .plist .t{color:var(--muted);font-size:11px;margin-right:6px}
        details.fgroup{border:1px solid var(--line);border-radius:8px;padding:8px 12px;margin:8px 0}
        details.fgroup>summary{cursor:pointer;display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 8px}
        .fg-title{font-weight:600}
        .fg-figures{margin-left:auto;color:var(--muted);white-space:nowrap}
        .tag.sev-error{background:#fee2e2;border-color:#fecaca;color:#991b1b}
        .tag.sev-warning{background:#fef3c7;border-color:#fde68a;color:#92400e}
        .fix{margin:6px 0 2px;overflow-wrap:anywhere}
        ol.frows{list-style:none;margin:6px 0 0;padding:0}
        ol.frows li{border-top:1px solid var(--line);padding:6px 0}
        .f-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:2px 12px}
        .f-size{white-space:nowrap;font-variant-numeric:tabular-nums}
        .f-message{overflow-wrap:anywhere}
        details.fmore>summary{cursor:pointer;color:var(--accent);margin:6px 0}
        details.doc{border:1px solid var(--line);border-radius:8px;padding:8px 12px;margin:8px 0}
        details.doc>summary{cursor:pointer;font-weight:600}
        footer{color:var(--muted);font-size:12.5px;padding:4px 0 32px}
        @media (max-width:720px){.t-row{grid-template-columns:minmax(0,1fr) 80px}.t-items,.t-share{display:none}}
        @media (max-width:600px){
        .wrap{padding:0 12px}
        section{padding:14px 12px}
        .cards{grid-template-columns:1fr 1fr;gap:8px}
        .card{padding:10px 12px}
        .card-value{font-size:20px}
        .scroll{overflow-x:visible}
        table[data-stack] thead{display:none}
        table[data-stack],table[data-stack] tbody{display:block;width:100%}
        table[data-stack] tr{display:flex;flex-wrap:wrap;gap:0 14px;padding:6px 0;border-bottom:1px solid var(--line)}
        table[data-stack] td{display:inline-flex;gap:6px;max-width:100%;min-width:0;border:0;padding:1px 0;\
        text-align:left;white-space:normal;overflow-wrap:anywhere}
        table[data-stack] td[data-label]::before{content:attr(data-label);color:var(--muted);font-size:12px;flex:none}
        table[data-stack] td:first-child{display:block;flex-basis:100%;font-weight:600}
        table[data-stack] td:first-child::before{content:none}
        tr.total td{border-top:0}
        .fg-figures{margin-left:0}
        }
        @media print{
        body{background:#fff;font-size:11px}
        .masthead{border:0;padding:0 0 12px}
        .toc,.tools{display:none}
        section{border:0;border-radius:0;padding:0;margin:0 0 18px;break-inside:auto}
        .card,tr,.t-row{break-inside:avoid}
        *{-webkit-print-color-adjust:exact;print-color-adjust:exact}
        .scroll{overflow:visible}
        details::details-content{content-visibility:visible;display:block}
        }
        details.more-rows>summary{cursor:pointer;color:var(--accent);margin:10px 0 4px}
        \(VerdictHTML.css)
        """

    /// Progressive enhancement only: sortable columns, expand/collapse of the tree, and opening the tree for
    /// printing. It marks `<html data-enhanced="true">` so a test can tell the policy let it run.
    public static let script: HTML = """
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
              if (title) { caption.textContent = title.textContent.split("\\n").slice(0, 2).join(" · "); }
            };
            caption.parentNode.addEventListener("focusin", show);
            caption.parentNode.addEventListener("mouseover", show);
          });
          document.documentElement.setAttribute("data-enhanced", "true");
        })();
        """
}

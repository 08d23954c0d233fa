  function fromHash() {
    var h = location.hash.replace(/^#/, ""), q = {};
    h.split("&").forEach(function (kv) { var p = kv.split("="); if (p.length === 2) q[p[0]] = p[1]; });
    if (q.game === undefined) {
      if (order.length) show(order[0], null);
      return;
    }
    if (q.ply === "end") {
      // as the End key does: step to the last ply
      show(parseInt(q.game, 10), 0);
      step(Infinity);
      return;
    }
    show(parseInt(q.game, 10), q.ply === undefined ? null : parseInt(q.ply, 10));
  }
  // The index: invalid games first, drawn 200 rows at a time as it is
  // scrolled, sortable by any column.
  var order = D.games.map(function (g, i) { return i; });
  order.sort(function (a, b) { return (D.games[a].valid ? 1 : 0) - (D.games[b].valid ? 1 : 0) || a - b; });
  var shown = 0, box = document.getElementById("index-box");
  // `#`: the game's number on the page, the N of its link `#game=N`
  var heads = ["#", "file", "game", "players", "result", "valid", "plies"];
  box.innerHTML = '<table id="index"><thead><tr>' + heads.map(function (h, k) { return '<th data-k="' + k + '">' + h + "</th>"; }).join("") +
    "</tr></thead><tbody></tbody></table>";
  var body = box.querySelector("tbody");
  function cell(n, k) {
    var g = D.games[n], r = g.row || [];
    return k === 0 ? n : k === 5 ? (g.valid ? "yes" : "no") : k === 6 ? g.plies : r[k - 1] || "";
  }
  function rowHtml(n) {
    var g = D.games[n];
    return '<tr class="' + (g.valid ? "ok" : "bad") + (cur && cur.n === n ? " sel" : "") + '" data-n="' + n + '"><td><a href="#game=' + n + '">' +
      n + "</a></td><td>" + esc(cell(n, 1)) + "</td><td>" + esc(cell(n, 2)) + "</td><td>" + esc(cell(n, 3)) + "</td><td>" + esc(cell(n, 4)) +
      "</td><td>" + cell(n, 5) + "</td><td>" + cell(n, 6) + "</td></tr>";
  }
  function more() {
    var next = Math.min(order.length, shown + 200);
    body.insertAdjacentHTML("beforeend", order.slice(shown, next).map(rowHtml).join(""));
    shown = next;
  }
  more();
  box.addEventListener("scroll", function () {
    if (shown < order.length && box.scrollTop + box.clientHeight > box.scrollHeight - 300) more();
  });
  var ths = box.querySelectorAll("th");
  Array.prototype.forEach.call(ths, function (th) {
    th.onclick = function () {
      var k = parseInt(th.getAttribute("data-k"), 10), asc = !th.classList.contains("asc");
      Array.prototype.forEach.call(ths, function (t) { t.classList.remove("asc", "desc"); });
      th.classList.add(asc ? "asc" : "desc");
      order.sort(function (a, b) {
        var x = cell(a, k), y = cell(b, k);
        var o = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
        return (asc ? o : -o) || a - b;
      });
      body.innerHTML = "";
      shown = 0;
      more();
    };
  });
  window.addEventListener("hashchange", fromHash);
  fromHash();
  // when the page was ready, in ms from the start of navigation
  document.body.setAttribute("data-ready", String(Math.round(performance.now())));
})();

  // A site's index and games, loaded as they are needed (site.rs): the
  // index's rows from index/K.js, rows K * S.rows on; the games' data from
  // games/K.js, games K * S.chunk on, with the defs, kinds and styles they
  // use. Script elements, not fetch: a site opened from disk loads them too.
  var S = D.site, ROWS = [], have = {}, waiting = {};
  var defsEl = document.querySelector("svg.defs defs");
  function need(key, path, cb) {
    if (have[key]) { cb(); return; }
    if (waiting[key]) { waiting[key].push(cb); return; }
    waiting[key] = [cb];
    var s = document.createElement("script");
    s.src = path;
    s.onerror = function () { document.getElementById("count").textContent = "cannot load " + path; };
    document.head.appendChild(s);
  }
  function arrived(key) {
    have[key] = true;
    var w = waiting[key] || [];
    delete waiting[key];
    w.forEach(function (cb) { cb(); });
  }
  window.gamerecGames = function (k, c) {
    Object.keys(c.defs).forEach(function (id) {
      if (!document.getElementById(id)) defsEl.insertAdjacentHTML("beforeend", c.defs[id]);
    });
    Object.keys(c.kinds).forEach(function (i) { D.kinds[i] = c.kinds[i]; });
    Object.keys(c.styles).forEach(function (i) { D.styles[i] = c.styles[i]; });
    c.games.forEach(function (g, i) { D.games[k * S.chunk + i] = g; });
    arrived("g" + k);
  };
  window.gamerecIndex = function (k, rows) {
    rows.forEach(function (r, i) { ROWS[k * S.rows + i] = r; });
    arrived("i" + k);
  };
  function needRows(ns, cb) {
    var files = {};
    ns.forEach(function (n) { files[Math.floor(n / S.rows)] = true; });
    var keys = Object.keys(files), left = keys.length;
    if (!left) { cb(); return; }
    keys.forEach(function (k) { need("i" + k, "index/" + k + ".js", function () { if (--left === 0) cb(); }); });
  }
  // every index file, for searching and sorting (once), with progress
  function needAll(cb) {
    var files = Math.ceil(S.games / S.rows), left = files, count = document.getElementById("count");
    if (!left) { cb(); return; }
    for (var k = 0; k < files; k++) {
      need("i" + k, "index/" + k + ".js", function () {
        left--;
        if (left > 0) count.textContent = "loading the index: " + (files - left) + " of " + files;
        else cb();
      });
    }
  }
  // A game opened once its data file is in (`end`: its last ply).
  var pending = 2;
  function ready() {
    if (--pending === 0) document.body.setAttribute("data-ready", String(Math.round(performance.now())));
  }
  function open(n, ply, cb) {
    if (!(n >= 0 && n < S.games)) { show(n, null); cb(); return; }
    var k = Math.floor(n / S.chunk);
    need("g" + k, "games/" + k + ".js", function () {
      if (ply === "end") { show(n, 0); step(Infinity); } else show(n, ply);
      cb();
    });
  }
  // The index: 100 rows a page; in reading order unless searched, filtered
  // or sorted (then over the whole index).
  var heads = ["#", "file", "game", "event", "date", "players", "result", "valid", "plies"];
  var st = { q: "", v: "", sort: -1, desc: false, page: 1 }, order = null;
  var box = document.getElementById("index-box");
  box.innerHTML = '<table id="index"><thead><tr>' + heads.map(function (h, k) { return '<th data-k="' + k + '">' + h + "</th>"; }).join("") +
    "</tr></thead><tbody></tbody></table>";
  var body = box.querySelector("tbody"), ths = box.querySelectorAll("th");
  function cell(n, k) {
    var r = ROWS[n] || [];
    return k === 0 ? n : k === 7 ? (r[6] ? "yes" : "no") : k === 8 ? r[7] : r[k - 1] || "";
  }
  function rowHtml(n) {
    var r = ROWS[n] || [], out = '<tr class="' + (r[6] ? "ok" : "bad") + (cur && cur.n === n ? " sel" : "") + '" data-n="' + n + '"><td><a href="#game=' + n + '">' + n + "</a></td>";
    for (var k = 1; k < heads.length; k++) out += '<td title="' + esc(cell(n, k)) + '">' + esc(cell(n, k)) + "</td>";
    return out + "</tr>";
  }
  function matches(n, terms) {
    var r = ROWS[n];
    if (!r || (st.v === "yes" && !r[6]) || (st.v === "no" && r[6])) return false;
    var text = [r[0], r[1], r[2], r[3], r[4], r[5]].join(" ").toLowerCase();
    return terms.every(function (t) { return text.indexOf(t) >= 0; });
  }
  function shownCount() { return order ? order.length : S.games; }
  function render(cb) {
    var total = shownCount(), pages = Math.max(1, Math.ceil(total / S.page));
    st.page = Math.max(1, Math.min(pages, st.page));
    var ns = [];
    for (var i = (st.page - 1) * S.page; i < Math.min(total, st.page * S.page); i++) ns.push(order ? order[i] : i);
    needRows(ns, function () {
      body.innerHTML = ns.map(rowHtml).join("");
      document.getElementById("p-at").textContent = "page " + st.page + " of " + pages;
      document.getElementById("count").textContent = order ? total + " of " + S.games + " games" : S.games + " games";
      Array.prototype.forEach.call(ths, function (t) {
        var k = parseInt(t.getAttribute("data-k"), 10);
        t.classList.toggle("asc", k === st.sort && !st.desc);
        t.classList.toggle("desc", k === st.sort && st.desc);
      });
      if (cb) cb(ns);
    });
  }
  // the order the state asks for, then the page drawn
  function refresh(cb) {
    if (!st.q && !st.v && st.sort < 0) { order = null; render(cb); return; }
    needAll(function () {
      // words, or "phrases in quotes", each to be found in a row
      var terms = [], all = [], re = /"([^"]*)"|(\S+)/g, m;
      while ((m = re.exec(st.q.toLowerCase()))) if (m[1] || m[2]) terms.push(m[1] || m[2]);
      for (var n = 0; n < S.games; n++) if (matches(n, terms)) all.push(n);
      if (st.sort >= 0) {
        var k = st.sort, sign = st.desc ? -1 : 1;
        all.sort(function (a, b) {
          var x = cell(a, k), y = cell(b, k);
          var o = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
          return sign * o || a - b;
        });
      }
      order = all;
      render(cb);
    });
  }
  function stateHash() {
    var p = [];
    if (st.q) p.push("q=" + encodeURIComponent(st.q));
    if (st.v) p.push("valid=" + st.v);
    if (st.sort >= 0) p.push("sort=" + st.sort + (st.desc ? "-" : ""));
    if (st.page > 1) p.push("page=" + st.page);
    if (cur) p.push("game=" + cur.n + "&ply=" + cur.ply);
    return "#" + p.join("&");
  }
  function changed() {
    refresh(function () { history.replaceState(null, "", stateHash()); });
  }
  var q = document.getElementById("q"), valid = document.getElementById("valid"), typing = null;
  q.addEventListener("input", function () {
    clearTimeout(typing);
    typing = setTimeout(function () { st.q = q.value.trim(); st.page = 1; changed(); }, 250);
  });
  valid.onchange = function () { st.v = valid.value; st.page = 1; changed(); };
  Array.prototype.forEach.call(ths, function (th) {
    th.onclick = function () {
      var k = parseInt(th.getAttribute("data-k"), 10);
      st.desc = st.sort === k ? !st.desc : false;
      st.sort = k;
      st.page = 1;
      changed();
    };
  });
  var turn = function (to) { return function () { st.page = to(); render(function () { history.replaceState(null, "", stateHash()); }); }; };
  document.getElementById("p-first").onclick = turn(function () { return 1; });
  document.getElementById("p-prev").onclick = turn(function () { return st.page - 1; });
  document.getElementById("p-next").onclick = turn(function () { return st.page + 1; });
  document.getElementById("p-last").onclick = turn(function () { return Infinity; });
  function params() {
    var h = location.hash.replace(/^#/, ""), p = {};
    h.split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      if (i > 0) {
        try { p[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1).replace(/\+/g, " ")); } catch (e) { p[kv.slice(0, i)] = kv.slice(i + 1); }
      }
    });
    return p;
  }
  // The hash's index state (when it has one) and game. Without a game, the
  // first row of the index's page is opened once, as a page opens its first.
  var first = true;
  function fromHash() {
    var p = params(), keys = ["q", "valid", "sort", "page"];
    var indexed = keys.some(function (k) { return p[k] !== undefined; });
    var game = p.game === undefined ? null : parseInt(p.game, 10);
    var ply = p.ply === "end" ? "end" : p.ply === undefined ? null : parseInt(p.ply, 10);
    var once = first;
    first = false;
    var opened = function (ns) {
      if (game !== null) open(game, ply, once ? ready : function () {});
      else if (once) {
        if (ns && ns.length) open(ns[0], null, ready);
        else ready();
      }
    };
    if (indexed || once) {
      st.q = p.q || "";
      st.v = p.valid === "yes" || p.valid === "no" ? p.valid : "";
      var s = /^(\d+)(-?)$/.exec(p.sort || "");
      st.sort = s && parseInt(s[1], 10) < heads.length ? parseInt(s[1], 10) : -1;
      st.desc = !!(s && s[2]);
      st.page = parseInt(p.page, 10) || 1;
      q.value = st.q;
      valid.value = st.v;
      refresh(function (ns) { if (once) ready(); opened(ns); });
    } else opened(null);
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();

// The replay viewer: draws any game's board at any ply from the page's
// compact data (a grid, a glyph table, cells and per-ply changes). It knows
// no game's rules.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var DIG = D.digits, VAL = {};
  for (var i = 0; i < DIG.length; i++) VAL[DIG.charAt(i)] = i;
  function num(s, at, w) {
    var v = 0;
    for (var k = 0; k < w; k++) v = v * DIG.length + (VAL[s.charAt(at + k)] || 0);
    return v;
  }
  function pairs(s, cw, gw) {
    var out = [];
    for (var i = 0; i + cw + gw <= s.length; i += cw + gw) out.push([num(s, i, cw), num(s, i + cw, gw)]);
    return out;
  }
  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function nums(v) {
    var out = [];
    for (var i = 0; i + v[1] <= v[2].length; i += v[1]) out.push(v[0] + num(v[2], i, v[1]));
    return out;
  }
  function prep(g) {
    if (g._p) return g._p;
    var st = D.styles[g.st] || {};
    g.seats = st.seats || [];
    g.tm = st.tm || [];
    g.sc = st.sc || [];
    g.unit = st.unit || "";
    if (typeof g.mv === "string") g.mv = g.mv === "" ? [] : g.mv.split(" ");
    g.s = g.s ? nums(g.s) : [];
    if (g.p) g.p = nums(g.p);
    var start = [];
    for (var i = 0; i < g.c.length; i += g.gw) start.push(num(g.c, i, g.gw));
    var diffs = g.plies > 0 ? g.d.split(" ").map(function (s) { return pairs(s, g.cw, g.gw); }) : [];
    var marks = g.m.split(" ").map(function (s) { return pairs(s, g.cw, g.gw); });
    g._p = { start: start, diffs: diffs, marks: marks };
    var ks = (D.kinds[g.k] || {}).s;
    if (ks && g.bc !== undefined) {
      // the stack's cubes: cells of their own, indexed file + files * (rank + ranks * level)
      var n = ks.f * ks.r * ks.l, sw = 1, cap = DIG.length;
      while (cap < n) { sw++; cap *= DIG.length; }
      var cubes = [];
      for (var j = 0; j < g.bc.length; j += g.gw) cubes.push(num(g.bc, j, g.gw));
      g._p.cubes = cubes;
      g._p.cdiffs = g.plies > 0 ? g.bd.split(" ").map(function (s) { return pairs(s, sw, g.gw); }) : [];
    }
    return g._p;
  }
  function cellsAt(g, ply) {
    var p = prep(g), cells = p.start.slice();
    for (var k = 0; k < ply && k < p.diffs.length; k++) {
      p.diffs[k].forEach(function (d) { cells[d[0]] = d[1]; });
    }
    return cells;
  }
  // A stack's cubes back to front (svg.rs, Stack::order): the columns
  // farthest from the corner first, each bottom up.
  function stackSvg(g, ply, k) {
    var s = k.s, p = prep(g), cubes = p.cubes.slice(), out = [];
    for (var d = 0; d < ply && d < p.cdiffs.length; d++) {
      p.cdiffs[d].forEach(function (c) { cubes[c[0]] = c[1]; });
    }
    out.push('<g class="stack" transform="translate(' + k.sx + " " + k.sy + ')"><use href="#b' + s.bg + '"/><g class="cubes">');
    for (var sum = s.f + s.r - 2; sum >= 0; sum--) {
      for (var x = 0; x < s.f; x++) {
        var y = sum - x;
        if (y < 0 || y >= s.r) continue;
        for (var z = 0; z < s.l; z++) {
          var c = cubes[x + s.f * (y + s.r * z)];
          if (c) out.push('<use href="#g' + g.gl[c] + '" x="' + (s.x0 + x * s.fx + y * s.rx + z * s.lx) +
            '" y="' + (s.y0 + x * s.fy + y * s.ry + z * s.ly) + '"/>');
        }
      }
    }
    out.push("</g></g>");
    return out.join("");
  }
  // The same markup as the pictures drawn by gamerec itself (svg.rs).
  function boardSvg(g, ply) {
    var k = D.kinds[g.k], cells = cellsAt(g, ply), out = [];
    var at = function (i) {
      return ' x="' + (k.lb + (i % k.cols) * k.cw) + '" y="' + (k.lb + Math.floor(i / k.cols) * k.rh) + '"/>';
    };
    out.push('<svg xmlns="http://www.w3.org/2000/svg" class="board" width="' + k.w + '" height="' + k.h +
      '" viewBox="0 0 ' + k.w + " " + k.h + '">');
    // a stack beside its top view, or the grid alone
    if (k.s && prep(g).cubes) out.push(stackSvg(g, ply, k) + '<g transform="translate(' + k.gx + " " + k.gy + ')">');
    out.push('<use href="#b' + k.bg + '"/><g class="cells">');
    cells.forEach(function (c, i) { if (c) out.push('<use href="#g' + g.gl[c] + '"' + at(i)); });
    (prep(g).marks[ply] || []).forEach(function (m) { out.push('<use href="#g' + g.gl[m[1]] + '"' + at(m[0])); });
    out.push(k.s && prep(g).cubes ? "</g></g></svg>" : "</g></svg>");
    return out.join("");
  }
  function scores(g, ply, key) {
    var v = g[key] || g.s, n = g.seats.length;
    return v.slice(ply * n, ply * n + n);
  }
  function status(g, ply) {
    var t = g.t.charAt(ply), parts = [];
    parts.push(ply === 0 ? "start position" : "after ply " + ply + " of " + g.plies);
    parts.push(t === "-" ? "game over" : (g.tm[num(t, 0, 1)] || "?") + " to move");
    var s = scores(g, ply, "s");
    var seats = g.seats.map(function (seat, i) {
      return '<span class="seat"><span class="sw" style="background:' + (g.sc[i] || "#000") + '"></span>' +
        esc(seat) + " " + s[i] + "</span>";
    });
    return esc(parts.join(", ")) + " &middot; " + seats.join("");
  }
  function diagHtml(d) {
    return '<div class="diag ' + d.severity + '"><code>' + esc(d.code) + "</code> (ply " + d.ply +
      (d.line ? ", line " + d.line + ":" + d.column : "") + ") " + esc(d.message) +
      (d.label ? '<div class="label">here: ' + esc(d.label) + "</div>" : "") +
      (d.help ? '<div class="help">help: ' + esc(d.help) + "</div>" : "") + "</div>";
  }
  // Where the plot's end labels go (their baselines, in seat order): each
  // beside its line's end, pushed apart top to bottom so that no two are
  // closer than a line of text (close final scores), then back up from the
  // picture's foot when the lowest would fall off it.
  function labels(v, n, end, sy, H) {
    var GAP = 13, at = [], k;
    for (k = 0; k < n; k++) at.push({ k: k, y: sy(v[end * n + k]) + 4 });
    at.sort(function (a, b) { return a.y - b.y || a.k - b.k; });
    for (k = 1; k < n; k++) at[k].y = Math.max(at[k].y, at[k - 1].y + GAP);
    for (var low = H - 2, i = n - 1; i >= 0; i--) {
      at[i].y = Math.min(at[i].y, low);
      low = at[i].y - GAP;
    }
    var ys = [];
    at.forEach(function (a) { ys[a.k] = Math.round(a.y * 10) / 10; });
    return ys;
  }
  function plotSvg(g, ply) {
    var n = g.seats.length, plies = Math.max(g.plies, 1), W = 640, H = 200, L = 44, R = 90, T = 24, B = 26;
    var v = g.p || g.s, top = 1, bottom = 0;
    v.forEach(function (x) { top = Math.max(top, x); bottom = Math.min(bottom, x); });
    g.e.forEach(function (d) { plies = Math.max(plies, d.ply); });
    var sx = function (p) { return L + (W - L - R) * p / plies; };
    var sy = function (x) { return T + (H - T - B) * (top - x) / (top - bottom); };
    var out = ['<svg xmlns="http://www.w3.org/2000/svg" width="' + W + '" height="' + H + '" viewBox="0 0 ' + W + " " + H +
      '" font-family="sans-serif" font-size="11"><rect width="' + W + '" height="' + H + '" fill="#fff"/>'];
    out.push('<path d="M' + sx(0) + " " + T + "V" + (H - B) + "H" + sx(plies) + '" stroke="#555" fill="none"/>');
    out.push('<text x="4" y="' + (T - 8) + '">' + esc(g.unit) + '</text><text x="' + sx(plies) + '" y="' + (H - 2) + '" text-anchor="end">ply</text>');
    [0, plies].forEach(function (p) { out.push('<text x="' + sx(p) + '" y="' + (H - B + 13) + '" text-anchor="middle">' + p + "</text>"); });
    [bottom, top].forEach(function (x) { out.push('<text x="' + (sx(0) - 4) + '" y="' + (sy(x) + 4) + '" text-anchor="end">' + x + "</text>"); });
    g.e.forEach(function (d) {
      var c = d.severity === "error" ? "#D55E00" : "#E69F00", x = sx(Math.min(d.ply, plies));
      out.push('<path d="M' + x + " " + T + "V" + (H - B) + '" stroke="' + c + '" stroke-width="2" stroke-dasharray="4 3"><title>' +
        esc(d.code + ": " + d.message) + "</title></path>");
    });
    var dashes = ["", "7 3", "2 2", "9 3 2 3", "4 4", "1 3"];
    var end = Math.floor(v.length / n) - 1, ly = labels(v, n, end, sy, H);
    for (var k = 0; k < n; k++) {
      var d = "";
      for (var p = 0; p * n + k < v.length; p++) d += (p ? "L" : "M") + sx(p).toFixed(1) + " " + sy(v[p * n + k]).toFixed(1);
      out.push('<path d="' + d + '" fill="none" stroke="' + (g.sc[k] || "#000") + '" stroke-width="2"' +
        (dashes[k % 6] ? ' stroke-dasharray="' + dashes[k % 6] + '"' : "") + "/>");
      var last = v[end * n + k];
      out.push('<text x="' + (sx(end) + 6) + '" y="' + ly[k] + '" fill="' + (g.sc[k] || "#000") + '">' + esc(g.seats[k]) + " " + last + "</text>");
    }
    out.push('<path d="M' + sx(ply) + " " + T + "V" + (H - B) + '" stroke="#C2185B" stroke-width="2"/>');
    out.push("</svg>");
    return out.join("");
  }
  var cur = null;
  function link(n, ply) { return "#game=" + n + "&ply=" + ply; }
  function show(n, ply) {
    var g = D.games[n], viewer = document.getElementById("viewer");
    if (!g) { viewer.hidden = true; return; }
    viewer.hidden = false;
    var fresh = !cur || cur.n !== n;
    if (ply === null || isNaN(ply) || ply > g.plies) ply = g.plies;
    if (ply < 0) ply = 0;
    cur = { n: n, ply: ply };
    document.getElementById("v-title").textContent = g.title;
    var rows = document.querySelectorAll("#index tbody tr");
    for (var i = 0; i < rows.length; i++) rows[i].classList.toggle("sel", rows[i].getAttribute("data-n") === String(n));
    if (g.k !== undefined) prep(g);
    if (g.k === undefined) {
      document.getElementById("v-status").textContent = "This game could not be set up.";
      document.getElementById("board").innerHTML = "";
      document.getElementById("v-plot").innerHTML = "";
    } else {
      document.getElementById("v-status").innerHTML = status(g, ply);
      document.getElementById("board").innerHTML = boardSvg(g, ply);
      document.getElementById("v-plot").innerHTML = plotSvg(g, ply);
    }
    // ply 0: the tags and the result, about the whole record
    var here = g.e.filter(function (d) { return d.ply === 0 || d.ply === ply || (ply === g.plies && d.ply > g.plies); });
    document.getElementById("v-diags").innerHTML = here.map(diagHtml).join("");
    if (fresh) {
      var items = ['<li value="0"><a href="' + link(n, 0) + '">start</a></li>'];
      var auto = {};
      (g.auto || []).forEach(function (p) { auto[p] = true; });
      (g.mv || []).forEach(function (m, i) {
        var p = i + 1, marks = g.e.filter(function (d) { return d.ply === p; }).map(function (d) { return d.severity === "error" ? " \u2717" : " \u26A0"; }).join("");
        items.push('<li value="' + p + '"' + (auto[p] ? ' class="auto"' : "") + '><a href="' + link(n, p) + '">' + esc(m) + (auto[p] ? " (auto)" : "") + marks + "</a></li>");
      });
      // a move not played: its notation and mark, the diagnostic as its title
      g.e.forEach(function (d) {
        if (d.ply > g.plies) items.push('<li value="' + d.ply + '" class="bad" title="' + esc(d.code + ": " + d.message) + '"><a href="' + link(n, g.plies) + '">' +
          (d.move !== undefined ? esc(d.move) + (d.severity === "error" ? " \u2717" : " \u26A0") : "\u2717 " + esc(d.code)) + "</a></li>");
      });
      document.getElementById("v-moves").innerHTML = items.join("");
    }
    var lis = document.querySelectorAll("#v-moves li");
    for (var j = 0; j < lis.length; j++) {
      var on = j === ply && !lis[j].classList.contains("bad");
      lis[j].classList.toggle("cur", on);
      if (on) {
        // keep the current move in view, scrolling the list, not the page
        var list = document.getElementById("v-moves"), top = lis[j].offsetTop;
        if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 20) list.scrollTop = top - list.clientHeight / 2;
      }
    }
  }
  function step(to) {
    if (!cur) return;
    var g = D.games[cur.n], ply = Math.max(0, Math.min(g.plies, to));
    history.replaceState(null, "", link(cur.n, ply));
    show(cur.n, ply);
  }
  // a click on the score plot goes to that ply
  document.getElementById("v-plot").onclick = function (e) {
    var svg = this.querySelector("svg");
    if (!cur || !svg) return;
    var g = D.games[cur.n], box = svg.getBoundingClientRect(), plies = Math.max(g.plies, 1);
    g.e.forEach(function (d) { plies = Math.max(plies, d.ply); });
    var x = (e.clientX - box.left) * 640 / box.width;
    step(Math.round((x - 44) / (640 - 44 - 90) * plies));
  };
  document.getElementById("v-first").onclick = function () { step(0); };
  document.getElementById("v-prev").onclick = function () { step(cur.ply - 1); };
  document.getElementById("v-next").onclick = function () { step(cur.ply + 1); };
  document.getElementById("v-last").onclick = function () { step(Infinity); };
  document.addEventListener("keydown", function (e) {
    if (!cur || e.altKey || e.ctrlKey || e.metaKey) return;
    var k = { ArrowLeft: cur.ply - 1, ArrowRight: cur.ply + 1, Home: 0, End: Infinity }[e.key];
    if (k === undefined) return;
    e.preventDefault();
    step(k);
  });

// turnpost game page: arrow keys step through the positions; on your turn, tapping board
// cells narrows the legal moves to those passing through the tapped cells (each part of a
// move in order, its parts in any order), and buttons choose between moves through the same
// cells (SanQi's colours). The page works without this script (links and the text field).
(function () {
  "use strict";

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
    if (!rel) return;
    var link = document.querySelector('nav.plies a[rel="' + rel + '"]');
    if (link) { event.preventDefault(); window.location.href = link.href; }
  });

  // A board wider than its frame (a phone) opens at its middle, where play mostly is.
  function centreBoard() {
    var frame = document.querySelector("figure.board");
    if (frame && frame.scrollWidth > frame.clientWidth) frame.scrollLeft = (frame.scrollWidth - frame.clientWidth) / 2;
  }

  function setUp() {
    centreBoard();
    var data = document.getElementById("legal-moves");
    var input = document.getElementById("move");
    var svg = document.getElementById("board");
    if (!data || !input || !svg) return;
    var moves;
    try { moves = JSON.parse(data.textContent); } catch (e) { return; }
    var help = document.getElementById("move-help");
    var clear = document.getElementById("clear-pick");
    var list = document.getElementById("legal-list");
    var choices = document.getElementById("move-choices");
    var picked = [];
    var ns = "http://www.w3.org/2000/svg";
    var cells = {};

    function same(a, b) { return a.toUpperCase() === b.toUpperCase(); }

    // How many of picked[from..] are a subsequence of one part's cells.
    function run(part, from) {
      var at = from;
      for (var i = 0; i < part.length && at < picked.length; i++) if (same(part[i], picked[at])) at++;
      return at - from;
    }

    // A move passes through the picked cells when they split into runs, each run in order
    // within a different part of the move: the parts of a move (Kechi's stone moves) are
    // entered in any order.
    function passesFrom(parts, used, from) {
      if (from === picked.length) return true;
      for (var p = 0; p < parts.length; p++) {
        if (used[p]) continue;
        for (var n = run(parts[p], from); n > 0; n--) {
          used[p] = true;
          var ok = passesFrom(parts, used, from + n);
          used[p] = false;
          if (ok) return true;
        }
      }
      return false;
    }
    function passes(move) { return passesFrom(move.c, [], 0); }
    function size(move) { return move.c.reduce(function (n, part) { return n + part.length; }, 0); }

    function choose(move) {
      input.value = move.m;
      choices.hidden = true;
      help.textContent = "Your move: " + move.m + ". Press Play.";
      document.getElementById("play").focus();
    }

    // Buttons for moves through the same cells (SanQi's colours), one per move.
    function offer(options) {
      choices.textContent = "";
      options.forEach(function (move) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "choice";
        if (move.s) {
          var swatch = document.createElement("span");
          swatch.className = "swatch " + move.s;
          button.appendChild(swatch);
          button.appendChild(document.createTextNode(" "));
        }
        button.appendChild(document.createTextNode((move.k || move.m) + " (" + move.m + ")"));
        button.addEventListener("click", function () { choose(move); });
        choices.appendChild(button);
      });
      choices.hidden = false;
      var first = choices.querySelector("button");
      if (first) first.focus();
    }

    function update() {
      var left = moves.filter(passes);
      var exact = left.filter(function (move) { return size(move) === picked.length; });
      Object.keys(cells).forEach(function (name) {
        cells[name].classList.remove("picked");
        cells[name].classList.remove("candidate");
      });
      picked.forEach(function (name) { if (cells[name]) cells[name].classList.add("picked"); });
      if (picked.length > 0) {
        left.forEach(function (move) {
          move.c.forEach(function (part) {
            part.forEach(function (name) { if (cells[name] && picked.indexOf(name) < 0) cells[name].classList.add("candidate"); });
          });
        });
      }
      list.textContent = "";
      left.forEach(function (move) {
        var option = document.createElement("option");
        option.value = move.m;
        list.appendChild(option);
      });
      clear.hidden = picked.length === 0;
      choices.hidden = true;
      var through = picked.join(", ");
      if (picked.length === 0) {
        help.textContent = moves.length + " legal moves. Type one, or tap the cells of your move on the board.";
      } else if (left.length === 1) {
        input.value = left[0].m;
        help.textContent = "One move passes through " + through + ": " + left[0].m + ". Press Play.";
      } else if (exact.length === 1) {
        input.value = exact[0].m;
        help.textContent = exact[0].m + " ends here: press Play, or tap another cell for one of " +
          (left.length - 1) + " longer moves.";
      } else if (exact.length > 1) {
        input.value = "";
        help.textContent = exact.length + " moves fill " + through + ": choose one.";
        offer(exact);
      } else {
        input.value = "";
        help.textContent = left.length + " moves pass through " + through + ": " +
          left.slice(0, 8).map(function (m) { return m.m; }).join(", ") + (left.length > 8 ? ", …" : "") +
          ". Tap another cell.";
      }
    }

    function click(name) {
      var before = picked.slice();
      picked.push(name);
      if (moves.filter(passes).length === 0) {
        // Not a continuation: start again from this cell if a move passes through it.
        picked = [name];
        if (moves.filter(passes).length === 0) {
          picked = before;
          help.textContent = "No legal move passes through " + before.concat([name]).join(", ") + ".";
          return;
        }
      }
      update();
    }

    // Each cell's tap target is a circle half as wide as the gap to the nearest cell.
    var centres = [];
    Array.prototype.forEach.call(svg.querySelectorAll("g"), function (group) {
      var title = group.querySelector("title");
      var circle = group.querySelector("circle:last-of-type") || group.querySelector("circle");
      var path = group.querySelector("path");
      if (!title) return;
      var x, y;
      if (circle) { x = +circle.getAttribute("cx"); y = +circle.getAttribute("cy"); }
      else if (path) { var box = path.getBBox(); x = box.x + box.width / 2; y = box.y + box.height / 2; }
      else return;
      centres.push({ group: group, name: title.textContent, x: x, y: y });
    });
    var pitch = Infinity;
    centres.forEach(function (a, i) {
      for (var j = i + 1; j < centres.length; j++) {
        var d = Math.hypot(a.x - centres[j].x, a.y - centres[j].y);
        if (d > 0 && d < pitch) pitch = d;
      }
    });
    var radius = isFinite(pitch) ? pitch / 2 : 13;
    centres.forEach(function (cell) {
      var ring = document.createElementNS(ns, "circle");
      ring.setAttribute("class", "pick-ring");
      ring.setAttribute("cx", cell.x); ring.setAttribute("cy", cell.y); ring.setAttribute("r", radius - 1);
      var hit = document.createElementNS(ns, "circle");
      hit.setAttribute("class", "cell-hit");
      hit.setAttribute("cx", cell.x); hit.setAttribute("cy", cell.y); hit.setAttribute("r", radius);
      cell.group.appendChild(ring);
      cell.group.appendChild(hit);
      cell.group.setAttribute("data-cell", cell.name);
      cells[cell.name] = cell.group;
      cell.group.addEventListener("click", function () { click(cell.name); });
    });
    clear.addEventListener("click", function () { picked = []; input.value = ""; update(); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();

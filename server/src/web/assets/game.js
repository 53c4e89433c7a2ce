// turnpost game page: arrow keys step through the positions; on your turn, clicking board
// cells narrows the legal moves to those passing through the clicked cells in order. The page
// works without this script (links and the text field).
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

  function setUp() {
    var data = document.getElementById("legal-moves");
    var input = document.getElementById("move");
    var svg = document.getElementById("board");
    if (!data || !input || !svg) return;
    var moves;
    try { moves = JSON.parse(data.textContent); } catch (e) { return; }
    var help = document.getElementById("move-help");
    var clear = document.getElementById("clear-pick");
    var list = document.getElementById("legal-list");
    var picked = [];
    var ns = "http://www.w3.org/2000/svg";
    var cells = {};

    // A move passes through the picked cells in order when they are a subsequence of its cells.
    function passes(move) {
      var at = 0;
      for (var i = 0; i < move.c.length && at < picked.length; i++) {
        if (move.c[i].toUpperCase() === picked[at].toUpperCase()) at++;
      }
      return at === picked.length;
    }

    function update() {
      var left = moves.filter(passes);
      Object.keys(cells).forEach(function (name) {
        cells[name].classList.remove("picked");
        cells[name].classList.remove("candidate");
      });
      picked.forEach(function (name) { if (cells[name]) cells[name].classList.add("picked"); });
      if (picked.length > 0) {
        left.forEach(function (move) {
          move.c.forEach(function (name) { if (cells[name] && picked.indexOf(name) < 0) cells[name].classList.add("candidate"); });
        });
      }
      list.textContent = "";
      left.forEach(function (move) {
        var option = document.createElement("option");
        option.value = move.m;
        list.appendChild(option);
      });
      clear.hidden = picked.length === 0;
      if (picked.length === 0) {
        help.textContent = moves.length + " legal moves. Type one, or click the cells of your move on the board in order.";
      } else if (left.length === 1) {
        input.value = left[0].m;
        help.textContent = "One move passes through " + picked.join(", ") + ": " + left[0].m + ". Press Play.";
      } else {
        input.value = "";
        help.textContent = left.length + " moves pass through " + picked.join(", ") + ": " +
          left.slice(0, 8).map(function (m) { return m.m; }).join(", ") + (left.length > 8 ? ", …" : "") +
          ". Click another cell.";
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

    Array.prototype.forEach.call(svg.querySelectorAll("g"), function (group) {
      var title = group.querySelector("title");
      var circle = group.querySelector("circle");
      if (!title || !circle) return;
      var name = title.textContent;
      var x = circle.getAttribute("cx"), y = circle.getAttribute("cy");
      var ring = document.createElementNS(ns, "circle");
      ring.setAttribute("class", "pick-ring");
      ring.setAttribute("cx", x); ring.setAttribute("cy", y); ring.setAttribute("r", "13");
      var hit = document.createElementNS(ns, "circle");
      hit.setAttribute("class", "cell-hit");
      hit.setAttribute("cx", x); hit.setAttribute("cy", y); hit.setAttribute("r", "13");
      group.appendChild(ring);
      group.appendChild(hit);
      group.setAttribute("data-cell", name);
      cells[name] = group;
      group.addEventListener("click", function () { click(name); });
    });
    clear.addEventListener("click", function () { picked = []; input.value = ""; update(); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();

// turnpost pages' script: arrow keys step through a game's positions; on your turn, tapping
// board cells narrows the legal moves to those passing through the tapped cells (each part of
// a move in order, its parts in any order), and buttons choose between moves through the same
// cells (SanQi's colours); the board fits the screen, zooms where its cells would be too small
// to tap, and turns for its player (see "The board's size, zoom and which way up"). Game pages
// and "your games" update themselves from the live streams (see "Live" below). Every page works
// without this script (links, forms, reloading).
(function () {
  "use strict";

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    // The arrow keys scroll a zoomed board that has the focus.
    if (target && target.classList && target.classList.contains("zoomed")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var rel = event.key === "ArrowLeft" ? "prev" : event.key === "ArrowRight" ? "next" : null;
    if (!rel) return;
    var link = document.querySelector('nav.plies a[rel="' + rel + '"]');
    if (link) { event.preventDefault(); window.location.href = link.href; }
  });

  // A board wider than its frame (a zoomed board on a phone) opens at its middle, where play
  // mostly is.
  function centreBoard() {
    var frame = document.querySelector("figure.board");
    if (frame && frame.scrollWidth > frame.clientWidth) frame.scrollLeft = (frame.scrollWidth - frame.clientWidth) / 2;
  }

  // ---- The board's size, zoom and which way up ----
  // At rest the board fills its frame's width, up to its natural size (its width attribute),
  // labels and all: it never scrolls. Where that puts its cells less than a finger apart (the
  // frame narrower than data-touch-width, where they are 25 px apart: a 320 px phone and the
  // larger boards), "Zoom board" (a switch, aria-pressed) widens the board to the larger of its
  // natural size and that width, and the frame scrolls; the first tap on such a board at rest
  // zooms it about the tapped point instead of picking a cell (on the small board a finger
  // could hit the neighbour). The zoom stays through a live swap of the page's region, not a
  // reload. A player's board is drawn with their pieces at the bottom (data-turn "turned": the
  // server turned it); the "Turn board" switch turns it over, and turning a board back is
  // remembered in this browser (localStorage) for every game.
  var TURN_KEY = "turnpost-board-turn";
  // Whether the player zoomed the board: kept in the script, so a swapped-in board zooms too.
  var zoomed = false;

  function remembered() {
    try { return window.localStorage.getItem(TURN_KEY); } catch (e) { return null; }
  }
  function remember(value) {
    try {
      if (value) window.localStorage.setItem(TURN_KEY, value); else window.localStorage.removeItem(TURN_KEY);
    } catch (e) { /* storage off: the switch still turns this page's board */ }
  }

  function turnBoard(svg, turned) {
    var group = document.getElementById("board-turn");
    if (!group) return;
    if (turned) group.setAttribute("transform", group.getAttribute("data-rotation"));
    else group.removeAttribute("transform");
    svg.classList.toggle("turned", turned);
    var button = document.getElementById("turn-board");
    if (button) button.setAttribute("aria-pressed", turned ? "true" : "false");
  }

  // The board at rest puts its cells less than a finger apart.
  function needsZoom(svg, frame) {
    var touch = +svg.getAttribute("data-touch-width");
    return touch > 0 && frame.clientWidth < touch;
  }

  function zoomBoard(svg, frame, on) {
    zoomed = on;
    var natural = +svg.getAttribute("width");
    var wide = Math.max(natural, +svg.getAttribute("data-touch-width"));
    svg.style.width = on ? wide + "px" : "";
    svg.style.maxWidth = on ? "none" : natural > 0 ? natural + "px" : "";
    frame.classList.toggle("zoomed", on);
    var button = document.getElementById("zoom-board");
    if (button) button.setAttribute("aria-pressed", on ? "true" : "false");
  }

  // Zooms in keeping the point of the board at (x, y) (the viewport's pixels) where it was.
  function zoomAt(svg, frame, x, y) {
    var before = svg.getBoundingClientRect();
    var across = (x - before.left) / before.width, down = (y - before.top) / before.height;
    zoomBoard(svg, frame, true);
    var after = svg.getBoundingClientRect();
    frame.scrollLeft += after.left + across * after.width - x;
    window.scrollBy(0, after.top + down * after.height - y);
  }

  // Offers the zoom where the board needs it (the screen may have turned), zoomed as before.
  function fitBoard() {
    var svg = document.getElementById("board");
    var frame = document.querySelector("figure.board");
    var button = document.getElementById("zoom-board");
    if (!svg || !frame || !button) return;
    var need = needsZoom(svg, frame);
    button.hidden = !need;
    button.parentNode.hidden = !need && !document.getElementById("turn-board");
    zoomBoard(svg, frame, need && zoomed);
  }
  window.addEventListener("resize", fitBoard);

  function toolButton(tools, id, label) {
    var button = document.createElement("button");
    button.type = "button";
    button.id = id;
    button.textContent = label;
    button.setAttribute("aria-pressed", "false");
    tools.appendChild(button);
    return button;
  }

  function setUpBoard() {
    var svg = document.getElementById("board");
    var frame = document.querySelector("figure.board");
    if (!svg || !frame) return;
    // The switches above the board: pressing "Zoom board" leaves it under the finger.
    var tools = document.createElement("p");
    tools.className = "board-tools";
    frame.parentNode.insertBefore(tools, frame);
    toolButton(tools, "zoom-board", "Zoom board").addEventListener("click", function () {
      if (zoomed) { zoomBoard(svg, frame, false); return; }
      var box = frame.getBoundingClientRect();
      zoomAt(svg, frame, box.left + box.width / 2, box.top);
    });
    // Capturing: the first tap on a board too small to tap zooms it and picks nothing.
    svg.addEventListener("click", function (event) {
      if (zoomed || !needsZoom(svg, frame)) return;
      event.stopPropagation();
      event.preventDefault();
      zoomAt(svg, frame, event.clientX, event.clientY);
    }, true);
    var own = svg.getAttribute("data-turn");
    if (own) {
      // The server turned this board for its player: unless they turned boards back here.
      if (own === "turned" && remembered() === "as-drawn") turnBoard(svg, false);
      toolButton(tools, "turn-board", "Turn board").addEventListener("click", function () {
        var turned = !svg.classList.contains("turned");
        turnBoard(svg, turned);
        // Remembered only for boards the server turns: "as drawn" or back to "your side".
        if (own === "turned") remember(turned ? null : "as-drawn");
      });
      turnBoard(svg, svg.classList.contains("turned"));
    }
    fitBoard();
  }

  // The move picker of the move form (on your turn).
  function setUpPicker() {
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
    // The same picker chooses a move to play or, in the prepared-answers panel, their move and
    // your answer: the field says which, the button what pressing it does.
    var what = input.getAttribute("data-what") || "Your move";
    var playLabel = document.getElementById("play").textContent.trim();
    var press = "Press " + playLabel + ".";
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
      help.textContent = what + ": " + move.m + ". " + press;
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

    // At most this many cells are named in a hint; more are counted.
    var NAMED = 8;
    // Cells ringed before the first tap: where moves start (the pieces that can move), when
    // they are this few (every empty cell starts a SanQi move: none is ringed then).
    var START_RINGS = 16;

    function names(list) { return list.length <= NAMED ? list.join(", ") : list.length + " cells"; }

    function update() {
      var left = moves.filter(passes);
      var exact = left.filter(function (move) { return size(move) === picked.length; });
      Object.keys(cells).forEach(function (name) {
        cells[name].classList.remove("picked");
        cells[name].classList.remove("candidate");
      });
      picked.forEach(function (name) { if (cells[name]) cells[name].classList.add("picked"); });
      // Ringed: before the first tap, where moves start; then the cells that continue the part
      // being tapped (where the tapped stone may go), else where the other parts start. Not
      // every cell of every remaining move: early in a Kechi turn that is nearly the whole
      // board (issue 47).
      var next = nextCells(left);
      var ring = picked.length > 0 || next.length <= START_RINGS;
      if (ring) next.forEach(function (name) { if (cells[name]) cells[name].classList.add("candidate"); });
      list.textContent = "";
      left.forEach(function (move) {
        var option = document.createElement("option");
        option.value = move.m;
        list.appendChild(option);
      });
      clear.hidden = picked.length === 0;
      choices.hidden = true;
      var through = picked.join(", ");
      if (moves.length === 0) {
        return;
      } else if (picked.length === 0) {
        help.textContent = ring && next.length <= NAMED
          ? "Start at a ringed cell: " + next.join(", ") + ". Or type your move."
          : moves.length + " legal moves: tap the cells of " + (what === "Your move" ? "yours" : "one") + " on the board, or type it.";
      } else if (left.length === 1) {
        input.value = left[0].m;
        help.textContent = what + ": " + left[0].m + ". " + press;
      } else if (exact.length === 1) {
        input.value = exact[0].m;
        help.textContent = exact[0].m + " ends here: press " + playLabel + ", or tap another cell to go on.";
      } else if (exact.length > 1) {
        input.value = "";
        help.textContent = exact.length + " moves fill " + through + ": choose one.";
        offer(exact);
      } else {
        input.value = "";
        help.textContent = through + ": tap a ringed cell next (" + names(next) + ").";
      }
    }

    function isPicked(name) {
      for (var i = 0; i < picked.length; i++) if (same(picked[i], name)) return true;
      return false;
    }

    // The cells to tap next among the moves `left`: before any tap, the first cell of each
    // part (the pieces that can move); then those right after the last tapped cell within a
    // part; when there are none, the untapped cells of parts begun, and the first cells of
    // parts not begun (Kechi's other stones).
    function nextCells(left) {
      var after = {}, others = {};
      var last = picked.length > 0 ? picked[picked.length - 1] : null;
      left.forEach(function (move) {
        move.c.forEach(function (part) {
          var begun = part.some(isPicked);
          for (var i = 0; i < part.length; i++) {
            var name = part[i];
            if (isPicked(name)) continue;
            if (last !== null && i > 0 && same(part[i - 1], last)) after[name] = true;
            if (begun || i === 0) others[name] = true;
          }
        });
      });
      var continuing = Object.keys(after);
      return continuing.length > 0 ? continuing : Object.keys(others);
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
      // A cell's group starts with its name; the group turning the board has none.
      var title = group.firstElementChild;
      if (title && title.tagName.toLowerCase() !== "title") title = null;
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
    update();
  }

  // Sets up the parts of the swappable region (#live-region): run at load and again each time
  // the live update swaps a newer copy in, whose elements have no listeners yet. A new part of
  // the game page that needs script is set up here.
  function setUpRegion() {
    setUpBoard();
    setUpPicker();
  }

  // ---- Live ----
  // A page with a #live-region carrying data-stream listens to that stream (Server-Sent
  // Events: EventSource resumes by itself with Last-Event-ID after a drop). On each event it
  // fetches the same page again and swaps its region for the new copy, keeping what the reader
  // was typing and where the focus was, and says what happened in #live-news (aria-live).
  // data-live="game": one game's page (swapped only when data-version, the game's state,
  // differs, so a refused move's reason stays until the game changes); "games": your games.
  var EVENT_TYPES = ["challenge", "accepted", "started", "declined", "move", "draw_offer",
    "draw_declined", "left", "game_over", "lapsed"];
  // How long to wait before opening a stream the server refused (too many open, or gone).
  var REOPEN_MS = 30000;

  function region() { return document.getElementById("live-region"); }

  function live() {
    var first = region();
    var news = document.getElementById("live-news");
    if (!first || !news || !first.getAttribute("data-stream")) return;
    if (!window.EventSource || !window.fetch || !window.DOMParser || !window.URLSearchParams) return;
    var kind = first.getAttribute("data-live");
    var game = first.getAttribute("data-game");
    var lastHtml = first.innerHTML;
    var heard = [];
    var busy = false, again = false;
    var source = null, reopen = null;

    // The page's own address: the game page (with ?ply=, never a POST's path), or this one.
    function pageUrl() {
      if (kind !== "game") return location.pathname === "/" ? "/" : "/me";
      var ply = new URLSearchParams(location.search).get("ply");
      return "/games/" + game + (ply !== null ? "?ply=" + encodeURIComponent(ply) : "");
    }

    function refresh() {
      if (busy) { again = true; return; }
      busy = true;
      // The events this copy will show: those heard while it is on its way go with the next.
      var told = heard;
      heard = [];
      fetch(pageUrl(), { headers: { "Accept": "text/html" }, credentials: "same-origin", cache: "no-store" })
        .then(function (answer) { return answer.ok ? answer.text() : null; })
        .then(function (html) {
          if (html === null) heard = told.concat(heard);
          else swapIn(new DOMParser().parseFromString(html, "text/html"), told);
        })
        .catch(function () {
          // Offline: the next event or wake-up tries again, and says these too.
          heard = told.concat(heard);
        })
        .then(function () {
          busy = false;
          if (again) { again = false; refresh(); }
        });
    }

    // A key that finds "the same" element in the new copy: its id, else what it does.
    function keyOf(element) {
      if (element.id) return "#" + element.id;
      var tag = element.tagName.toLowerCase();
      if (tag === "a") return "a " + element.getAttribute("href");
      if (tag === "button") {
        return "button " + (element.form ? element.form.getAttribute("action") : "") + " " +
          (element.value || "") + " " + element.textContent;
      }
      return tag + "." + element.className;
    }

    function findByKey(within, key) {
      var all = within.querySelectorAll("[id], a, button, input, textarea, select, [tabindex]");
      for (var i = 0; i < all.length; i++) if (keyOf(all[i]) === key) return all[i];
      return null;
    }

    function swapIn(doc, told) {
      var old = region();
      var fresh = doc.getElementById("live-region");
      if (!old || !fresh) return;
      var unchanged = kind === "game"
        ? fresh.getAttribute("data-version") === old.getAttribute("data-version")
        : fresh.innerHTML === lastHtml;
      if (unchanged) return;
      lastHtml = fresh.innerHTML;
      var samePly = fresh.getAttribute("data-ply") === old.getAttribute("data-ply");
      // What the reader typed: messages always, a move only while the position is the same.
      var typed = [];
      Array.prototype.forEach.call(old.querySelectorAll("textarea[id], input[type=text][id]"), function (field) {
        if (field.value !== "" && field.value !== field.defaultValue &&
            (field.tagName === "TEXTAREA" || samePly)) typed.push({ id: field.id, value: field.value });
      });
      var active = document.activeElement;
      var focused = active && active !== document.body && old.contains(active) ? keyOf(active) : null;
      var selection = focused && typeof active.selectionStart === "number"
        ? [active.selectionStart, active.selectionEnd] : null;
      var frame = old.querySelector("figure.board");
      var scrolled = frame ? frame.scrollLeft : null;

      var node = document.adoptNode(fresh);
      old.parentNode.replaceChild(node, old);
      typed.forEach(function (entry) {
        var field = document.getElementById(entry.id);
        if (field && node.contains(field) && field.value === "") field.value = entry.value;
      });
      setUpRegion();
      var newFrame = node.querySelector("figure.board");
      if (newFrame && scrolled !== null) newFrame.scrollLeft = scrolled;
      else centreBoard();
      if (focused) {
        var same = findByKey(node, focused);
        if (same) {
          same.focus({ preventScroll: true });
          if (selection && typeof same.setSelectionRange === "function") {
            try { same.setSelectionRange(selection[0], selection[1]); } catch (e) { /* not text */ }
          }
        }
      }
      if (kind === "game") afterGameSwap(node);
      if (!node.getAttribute("data-stream") && source) { source.close(); source = null; }
      say(kind === "game" ? gameNews(told, node) : gamesNews(told, node));
    }

    // The "You played …" banner is stale once the game has moved on: gone, and so is the
    // ?played= that brought it (a reload would show it again); a POST's address becomes the
    // game page's, so that reloading does not post again.
    function afterGameSwap(node) {
      var params = new URLSearchParams(location.search);
      var played = params.get("played");
      var stale = played !== null && +node.getAttribute("data-ply") > +played;
      if (stale) {
        var banner = document.querySelector("p.notice.played");
        if (banner) banner.parentNode.removeChild(banner);
      }
      var keep = played !== null && !stale ? (pageUrl().indexOf("?") < 0 ? "?" : "&") + "played=" + encodeURIComponent(played) : "";
      var address = pageUrl() + keep;
      if (location.pathname + location.search !== address && window.history && history.replaceState) {
        history.replaceState(history.state, "", address);
      }
    }

    function say(text) {
      if (!text) return;
      var line = document.createElement("p");
      line.className = "notice";
      line.textContent = text;
      news.textContent = "";
      news.appendChild(line);
    }

    // The last few things heard, in words.
    function sentences(told, one) {
      return told.map(one).filter(function (text) { return text; }).slice(-3).join(" ");
    }

    function gameNews(told, node) {
      var heardText = sentences(told, function (event) {
        var by = event.by || "A player";
        switch (event.type) {
          case "move": return by + " played " + (event.last_move || "a move") + ".";
          case "draw_offer": return by + " offers a draw.";
          case "draw_declined": return by + " declined the draw.";
          case "accepted": return by + " accepted.";
          case "started": return "The game has started.";
          case "declined": return by + " declined.";
          case "left": return "A player left the game.";
          case "lapsed": return "The challenge lapsed.";
          default: return "";
        }
      });
      var state = node.querySelector("p.state");
      var now = document.getElementById("move-form") ? "Your turn." : (state ? state.textContent : "");
      return (heardText ? heardText + " " : "The game changed. ") + now;
    }

    function gamesNews(told, node) {
      var text = sentences(told, function (event) {
        var link = node.querySelector('a[href="/games/' + event.game + '"]');
        var title = link ? link.textContent : "game " + event.game;
        var by = event.by || "A player";
        switch (event.type) {
          case "move":
            return event.for_you === "turn"
              ? "Your turn in " + title + ": " + by + " played " + (event.last_move || "a move") + "."
              : by + " played " + (event.last_move || "a move") + " in " + title + ".";
          case "challenge": return by + " challenges you: " + title + ".";
          case "accepted": return by + " accepted " + title + ".";
          case "started": return title + " has started.";
          case "declined": return by + " declined " + title + ".";
          case "draw_offer": return by + " offers a draw in " + title + ".";
          case "draw_declined": return by + " declined the draw in " + title + ".";
          case "left": return "A player left " + title + ".";
          case "game_over": return title + " is over.";
          case "lapsed": return title + " lapsed.";
          default: return "";
        }
      });
      return text || "Your games changed.";
    }

    function heardEvent(message) {
      var event;
      try { event = JSON.parse(message.data); } catch (e) { return; }
      if (kind === "game" && String(event.game) !== game) return;
      heard.push(event);
      refresh();
    }

    function connect() {
      reopen = null;
      var current = region();
      var url = current && current.getAttribute("data-stream");
      if (!url) return;
      var opened = false;
      source = new EventSource(url);
      source.addEventListener("open", function () {
        document.body.setAttribute("data-live", "open");
        // What happened between this copy of the page and the stream's start.
        if (!opened) { opened = true; refresh(); }
      });
      source.addEventListener("error", function () {
        document.body.setAttribute("data-live", "waiting");
        // EventSource retries a dropped stream by itself; one the server refused is closed.
        if (source && source.readyState === EventSource.CLOSED) {
          source = null;
          if (!reopen) reopen = setTimeout(connect, REOPEN_MS);
        }
      });
      EVENT_TYPES.forEach(function (type) { source.addEventListener(type, heardEvent); });
    }

    // A tab that was asleep (or restored from the back-forward cache) catches up at once.
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") refresh();
    });
    window.addEventListener("pageshow", function (event) {
      if (!event.persisted) return;
      if (source && source.readyState === EventSource.CLOSED) source = null;
      if (!source && !reopen) connect();
      refresh();
    });
    connect();
  }

  function setUp() {
    setUpRegion();
    centreBoard();
    live();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();

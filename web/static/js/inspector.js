// inspector.js steps through a match: it draws a turn with the game's
// renderer (renderers.js), fills the commands, bot output, stats and events
// tables, marks the turns with events on a timeline, plays the match at a
// chosen speed by the wall clock while prefetching the turns ahead, and
// keeps the address bar on the turn shown so the URL can be shared.
(function () {
  'use strict';
  var meta = JSON.parse(document.getElementById('inspector-meta').textContent);
  var initial = JSON.parse(document.getElementById('inspector-turn').textContent);
  var api = '/api/v1/matches/' + meta.id + '/turns/';
  // A match whose bots drew over the board has its turns asked with
  // their drawings, and a toggle per seat that drew (off at first).
  var debugSeats = meta.debug_seats || [];
  var debugQuery = debugSeats.length ? '?debug=1' : '';
  var debugOn = new Set();
  var draw = window.ReplayLab.renderer(meta.game);
  var PREFETCH = 12;
  // MAX_OUTPUT bounds the characters of one stream shown per seat; the
  // server already bounds what it sends, this keeps the panel light.
  var MAX_OUTPUT = 4096;

  var root = document.getElementById('inspector');
  var board = document.getElementById('board');
  var slider = document.getElementById('turn-slider');
  var speed = document.getElementById('speed');
  var number = document.getElementById('turn-number');
  var playButton = root.querySelector('[data-action=play]');
  var beforeButton = root.querySelector('[data-action=before]');
  var stateNote = document.getElementById('state-note');
  var before = false; // draw the board the turn's commands were chosen from

  var cache = new Map([[initial.turn, Promise.resolve(initial)]]);
  var current = initial.turn;
  var shown = initial.turn; // the turn drawn, which may trail current while its data loads
  var playing = null; // {frame, start, from, rate} while playing
  // The turns with marked events, ascending, each with what happened.
  var marks = eventTurns(meta.marks);

  function load(n) {
    if (!cache.has(n)) {
      var p = fetch(api + n + debugQuery, { headers: { Accept: 'application/json' } }).then(function (r) {
        if (!r.ok) throw new Error('turn ' + n + ': HTTP ' + r.status);
        return r.json();
      });
      p.catch(function () { cache.delete(n); });
      cache.set(n, p);
    }
    return cache.get(n);
  }

  function cell(row, text, className) {
    var td = document.createElement('td');
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
    return td;
  }

  // playerName is a seat's bot and version; seatLabel names the seat as
  // every page does, counting from 1: "Seat 1 · bot v2".
  function playerName(seat) {
    var p = meta.players[seat];
    return p ? p.name + (p.version ? ' ' + p.version : '') : '';
  }

  function seatLabel(seat) {
    var name = playerName(seat);
    return 'Seat ' + (seat + 1) + (name ? ' · ' + name : '');
  }

  // unitLabel names a seat's unit as the game does (sim.UnitNaming):
  // "worm 21" is Worms' second seat's first worm.
  function unitLabel(seat, unit) {
    return meta.unit.noun + ' ' + (meta.unit.first + meta.unit.per_seat * seat + unit);
  }

  function describe(e) {
    var s = e.kind;
    if (e.amount) s += ' ' + (e.amount > 0 ? '+' : '') + e.amount;
    if (e.detail) s += ': ' + e.detail;
    return s;
  }

  // drawBoard draws the board of turn t: the state after it, or, with
  // "before" pressed, the state after turn t-1 that its commands were
  // chosen from (turn 0 has no turn before it).
  function drawBoard(t) {
    var early = before && t.turn > 0;
    stateNote.textContent = early ?
      'The board after turn ' + (t.turn - 1) + ', which the commands of turn ' + t.turn + ' below were chosen from.' :
      'The board after turn ' + t.turn + (t.turn > 0 ? '; its commands below were chosen from the board after turn ' + (t.turn - 1) + '.' : ', the setup.');
    if (!early) {
      draw(board, t.frame.state, t, meta);
      drawDebug(t);
      return;
    }
    load(t.turn - 1).then(function (prev) {
      if (shown === t.turn && before) {
        draw(board, prev.frame.state, prev, meta);
        drawDebug(t);
      }
    }, function (err) {
      board.textContent = String(err);
    });
  }

  // drawDebug draws turn t's debug drawings of the seats toggled on: what
  // the bots drew answering turn t, from the board before it, over the
  // board shown.
  var debugTurn = null;
  function drawDebug(t) {
    debugTurn = t;
    if (debugSeats.length) window.ReplayLab.drawDebug(board, t.debug, debugOn);
  }

  function debugToggles() {
    var box = document.getElementById('debug-toggles');
    if (!debugSeats.length) return;
    box.appendChild(document.createTextNode('Debug drawing:'));
    debugSeats.forEach(function (seat) {
      var label = document.createElement('label');
      var check = document.createElement('input');
      check.type = 'checkbox';
      check.setAttribute('data-debug-seat', seat);
      check.addEventListener('change', function () {
        if (check.checked) debugOn.add(seat); else debugOn.delete(seat);
        if (debugTurn) drawDebug(debugTurn);
      });
      var swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = meta.players[seat] ? meta.players[seat].color : '';
      label.append(check, swatch, document.createTextNode(seatLabel(seat)));
      box.appendChild(label);
    });
    box.hidden = false;
  }
  debugToggles();

  function render(t) {
    shown = t.turn;
    drawBoard(t);
    root.setAttribute('data-shown', t.turn); // playback is measured by it

    var cmds = document.querySelector('#commands tbody');
    cmds.replaceChildren();
    meta.players.forEach(function (p) {
      var row = document.createElement('tr');
      var swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = p.color;
      cell(row, p.seat + 1).prepend(swatch);
      cell(row, playerName(p.seat));
      var cmd = t.frame.commands[p.seat];
      cell(row, t.turn === 0 ? '(start)' : cmd ? cmd : '(none)', 'command');
      var mine = t.events.filter(function (e) { return e.seat === p.seat; }).map(describe);
      cell(row, mine.length ? mine.join('; ') : t.turn === 0 ? '' : 'played');
      var time = (t.times || []).find(function (x) { return x.seat === p.seat; });
      cell(row, time ? formatMS(time.ms) : '', 'num');
      cmds.appendChild(row);
    });

    renderOutput(t.output);

    // One row per player, its units' rows under it, and one column per
    // metric under its short label (the full one on hover): a game has
    // up to 19 metrics, which fit the page's width as columns and, on a
    // phone, a card per row (the stylesheet's; each cell carries its label).
    // A unit's row leaves the metrics the game reports per player empty.
    var head = document.querySelector('#stats thead');
    var hr = document.createElement('tr');
    var corner = document.createElement('th');
    corner.textContent = meta.unit.noun === 'unit' ? 'Seat' : 'Seat, ' + meta.unit.noun;
    hr.appendChild(corner);
    var columns = [{ short: 'Alive', label: 'Alive', value: function (s) { return s.alive ? 'yes' : 'no'; } }];
    meta.metrics.forEach(function (m, i) {
      columns.push({ short: m.short || m.label, label: m.label + (m.unit ? ' (' + m.unit + ')' : ''), perUnit: m.per_unit, value: function (s) { return metricText(m, s.values[i]); } });
    });
    columns.forEach(function (c) {
      var th = document.createElement('th');
      th.className = 'num';
      th.scope = 'col';
      th.textContent = c.short;
      th.title = c.label;
      hr.appendChild(th);
    });
    head.replaceChildren(hr);
    var body = document.querySelector('#stats tbody');
    body.replaceChildren();
    t.stats.forEach(function (s) {
      var row = document.createElement('tr');
      var th = document.createElement('th');
      th.scope = 'row';
      if (s.unit < 0) {
        var swatch = document.createElement('span');
        swatch.className = 'swatch';
        swatch.style.background = meta.players[s.seat] ? meta.players[s.seat].color : '';
        th.append(swatch, seatLabel(s.seat));
      } else {
        row.className = 'unit';
        th.textContent = unitLabel(s.seat, s.unit);
        th.title = seatLabel(s.seat) + ' · ' + unitLabel(s.seat, s.unit);
      }
      row.appendChild(th);
      columns.forEach(function (c, i) {
        var td = cell(row, i > 0 && s.unit >= 0 && !c.perUnit ? '' : c.value(s), 'num');
        td.setAttribute('data-label', c.short);
        td.title = c.label;
        if (td.textContent === '') td.classList.add('none');
      });
      body.appendChild(row);
    });

    var list = document.getElementById('events');
    list.replaceChildren();
    t.events.forEach(function (e) {
      var li = document.createElement('li');
      var who = document.createElement('span');
      who.textContent = (e.seat < 0 ? 'game' : seatLabel(e.seat)) + (e.unit >= 0 ? ' · ' + unitLabel(e.seat, e.unit) : '') + ': ';
      var kind = document.createElement('span');
      kind.className = 'kind';
      kind.textContent = describe(e);
      li.append(who, kind);
      list.appendChild(li);
    });
    if (!t.events.length) {
      var none = document.createElement('li');
      none.className = 'empty';
      none.textContent = 'No events this turn.';
      list.appendChild(none);
    }
  }

  // renderOutput shows, per seat, what its bot wrote this turn besides its
  // formatMS writes an answer time: milliseconds, to the microsecond
  // under 10 ms.
  function formatMS(ms) {
    return (ms < 10 ? ms.toFixed(3) : ms < 1000 ? ms.toFixed(1) : ms.toFixed(0)) + ' ms';
  }

  // answer: standard error and stray standard output, as text (never HTML).
  function renderOutput(output) {
    var box = document.getElementById('bot-output');
    box.replaceChildren();
    meta.players.forEach(function (p) {
      var section = document.createElement('section');
      section.className = 'seat-output';
      section.setAttribute('data-seat', p.seat);
      var h = document.createElement('h3');
      h.textContent = seatLabel(p.seat);
      section.appendChild(h);
      var mine = (output || []).filter(function (o) { return o.seat === p.seat; });
      mine.forEach(function (o) {
        var pre = document.createElement('pre');
        pre.className = 'stream-' + o.stream;
        pre.setAttribute('data-stream', o.stream);
        pre.textContent = o.text.length > MAX_OUTPUT ? o.text.slice(0, MAX_OUTPUT) + '\n… (cut)' : o.text;
        section.appendChild(pre);
      });
      if (!mine.length) {
        var none = document.createElement('p');
        none.className = 'empty';
        none.textContent = 'no output';
        section.appendChild(none);
      }
      box.appendChild(section);
    });
  }

  // metricText shows an integer metric as it is and any other with at
  // most two decimals: 91.86, not 91.86000000000162.
  function metricText(m, v) {
    if (m.integer || typeof v !== 'number') return v;
    return String(Math.round(v * 100) / 100);
  }

  function show(n) {
    n = Math.max(0, Math.min(meta.turns, n));
    current = n;
    slider.value = n;
    number.textContent = n;
    timelineAt(n);
    history.replaceState(null, '', meta.url + '/turns/' + n);
    document.title = document.title.replace(/turn \d+|turn inspector/, 'turn ' + n);
    return load(n).then(function (t) {
      // Draw the turn unless a later request has overtaken it; while
      // playing, a turn that arrives late is still drawn if it is ahead of
      // the one on screen, so a slow fetch skips turns rather than
      // freezing the board until the clock's turn arrives.
      if (t.turn === current || (playing && t.turn > shown && t.turn < current)) render(t);
    }, function (err) {
      board.textContent = String(err);
    });
  }

  // prefetch loads the turns after from: PREFETCH of them, or a second's
  // worth while playing faster than that.
  function prefetch(from) {
    var ahead = Math.max(PREFETCH, playing ? Math.ceil(playing.rate) : 0);
    for (var n = from + 1; n <= Math.min(meta.turns, from + ahead); n++) load(n);
  }

  // showPlaying shows the play button as a pause button while playing:
  // its word on wide screens, its glyph on phones.
  function showPlaying(on) {
    playButton.setAttribute('aria-pressed', String(on));
    playButton.setAttribute('aria-label', on ? 'Pause' : 'Play');
    playButton.querySelector('.word').textContent = on ? 'Pause' : 'Play';
    playButton.querySelector('.glyph').textContent = on ? '❚❚' : '▶';
  }

  function stop() {
    if (playing) cancelAnimationFrame(playing.frame);
    playing = null;
    showPlaying(false);
  }

  // tick shows the turn the wall clock has reached since play began, so
  // the speed holds whatever a frame costs: a slow frame skips turns
  // instead of slowing the match down.
  function tick(now) {
    var due = playing.from + Math.floor((now - playing.start) * playing.rate / 1000);
    if (due > current) {
      show(due);
      prefetch(due);
    }
    if (current >= meta.turns) return stop();
    playing.frame = requestAnimationFrame(tick);
  }

  // start plays from the turn shown at the chosen speed (turns per second).
  function start() {
    playing = { from: current, start: performance.now(), rate: Number(speed.value) || 1 };
    playing.frame = requestAnimationFrame(tick);
  }

  function play() {
    if (playing) return stop();
    if (current >= meta.turns) show(0);
    showPlaying(true);
    start();
    prefetch(current);
  }

  // eventTurns groups the marked events by turn, in turn order.
  function eventTurns(events) {
    var byTurn = new Map();
    (events || []).forEach(function (e) {
      if (!byTurn.has(e.turn)) byTurn.set(e.turn, []);
      byTurn.get(e.turn).push((e.seat < 0 ? 'game' : seatLabel(e.seat)) + ': ' + e.kind);
    });
    return Array.from(byTurn.keys()).sort(function (a, b) { return a - b; }).map(function (turn) {
      return { turn: turn, what: byTurn.get(turn) };
    });
  }

  // The timeline puts one mark per turn with events under the slider; the
  // mark says what happened in its tooltip, never as text on the line, so
  // close events cannot overlap into one unreadable word.
  var timeline = document.getElementById('timeline');
  marks.forEach(function (m) {
    var b = document.createElement('button');
    b.type = 'button';
    b.className = 'mark';
    b.style.left = (meta.turns ? 100 * m.turn / meta.turns : 0) + '%';
    b.title = 'turn ' + m.turn + ': ' + m.what.join(', ');
    b.setAttribute('aria-label', b.title);
    b.setAttribute('data-turn', m.turn);
    b.addEventListener('click', function () { stop(); show(m.turn); });
    timeline.appendChild(b);
  });
  if (!marks.length) timeline.hidden = true;

  function timelineAt(n) {
    timeline.querySelectorAll('.mark').forEach(function (b) {
      b.classList.toggle('current', Number(b.getAttribute('data-turn')) === n);
    });
  }

  // eventFrom returns the first marked turn after n (step 1) or the last
  // before it (step -1), or n when there is none.
  function eventFrom(n, step) {
    var found = n;
    marks.some(function (m) {
      if (step > 0 && m.turn > n) { found = m.turn; return true; }
      if (step < 0 && m.turn < n) found = m.turn;
      return step < 0 && m.turn >= n;
    });
    return found;
  }

  var gotoForm = document.getElementById('goto');
  var gotoInput = document.getElementById('goto-turn');
  var gotoError = document.getElementById('goto-error');
  gotoForm.addEventListener('submit', function (e) {
    e.preventDefault();
    var text = gotoInput.value.trim();
    var n = Number(text);
    if (!/^\d+$/.test(text)) {
      gotoError.textContent = text === '' ? 'Type a turn number.' : '"' + text.slice(0, 20) + '" is not a turn number.';
    } else if (n > meta.turns) {
      gotoError.textContent = 'Turn ' + text.slice(0, 20) + ' is past the last turn, ' + meta.turns + '.';
    } else {
      gotoError.textContent = '';
      stop();
      show(n);
      gotoInput.blur();
    }
  });

  // Esc leaves the box, giving the keys back to the inspector.
  gotoInput.addEventListener('keydown', function (e) {
    if (e.key === 'Escape') gotoInput.blur();
  });

  var help = document.getElementById('keys-help');
  function toggleHelp() {
    help.hidden = !help.hidden;
    (help.hidden ? root.querySelector('.controls [data-action=help]') : help.querySelector('button')).focus();
  }

  var actions = {
    first: function () { stop(); show(0); },
    prev: function () { stop(); show(current - 1); },
    next: function () { stop(); show(current + 1); prefetch(current); },
    last: function () { stop(); show(meta.turns); },
    prevEvent: function () { stop(); show(eventFrom(current, -1)); },
    nextEvent: function () { stop(); show(eventFrom(current, 1)); },
    play: play,
    // Once the key is up, or its g would land in the box.
    goto: function () {
      document.addEventListener('keyup', function () { gotoInput.focus(); gotoInput.select(); }, { once: true });
    },
    help: toggleHelp,
    before: function () {
      before = !before;
      beforeButton.setAttribute('aria-pressed', String(before));
      load(current).then(function (t) { if (t.turn === shown) drawBoard(t); });
    }
  };

  root.querySelectorAll('[data-action]').forEach(function (b) {
    b.addEventListener('click', function () { actions[b.getAttribute('data-action')](); });
  });
  slider.addEventListener('input', function () { stop(); show(Number(slider.value)); });
  // A new speed applies from the turn shown, without a jump.
  speed.addEventListener('change', function () { if (playing) { cancelAnimationFrame(playing.frame); start(); } });

  // keys maps each key to its action and the words the ? overlay lists.
  var keys = [
    { keys: ['ArrowLeft'], label: '←', action: 'prev', what: 'previous turn' },
    { keys: ['ArrowRight'], label: '→', action: 'next', what: 'next turn' },
    { keys: ['['], label: '[', action: 'prevEvent', what: 'previous turn with an event' },
    { keys: [']'], label: ']', action: 'nextEvent', what: 'next turn with an event' },
    { keys: [' '], label: 'space', action: 'play', what: 'play or pause' },
    { keys: ['Home'], label: 'Home', action: 'first', what: 'first turn' },
    { keys: ['End'], label: 'End', action: 'last', what: 'last turn' },
    { keys: ['g'], label: 'g', action: 'goto', what: 'go to a turn: type its number, then Enter' },
    { keys: ['b'], label: 'b', action: 'before', what: 'show the board before the turn (its commands were chosen from it) or after it' },
    { keys: ['?'], label: '?', action: 'help', what: 'show or hide this list' },
    { keys: ['Escape'], label: 'Esc', action: 'help', what: 'close this list, or leave the turn box' }
  ];
  var byKey = new Map();
  var list = document.getElementById('keys-list');
  keys.forEach(function (k) {
    k.keys.forEach(function (key) { byKey.set(key, k.action); });
    var dt = document.createElement('dt');
    var kbd = document.createElement('kbd');
    kbd.textContent = k.label;
    dt.appendChild(kbd);
    var dd = document.createElement('dd');
    dd.textContent = k.what;
    list.append(dt, dd);
  });

  document.addEventListener('keydown', function (e) {
    var action = byKey.get(e.key);
    if (!action || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'Escape' && help.hidden) return;
    if (!help.hidden && e.key !== 'Escape' && e.key !== '?') return; // the overlay is modal
    var tag = e.target.tagName;
    if (tag === 'SELECT' || (tag === 'INPUT' && e.target.type !== 'range') || tag === 'TEXTAREA') return;
    // The keys belong to the inspector, not to the focused button or slider.
    e.preventDefault();
    actions[action]();
  });

  render(initial);
  prefetch(current);
})();

// inspector.js steps through a match: it draws a turn with the game's
// renderer (renderers.js), fills the commands, stats and events tables,
// plays the match at a chosen speed while prefetching the turns ahead, and
// keeps the address bar on the turn shown so the URL can be shared.
(function () {
  'use strict';
  var meta = JSON.parse(document.getElementById('inspector-meta').textContent);
  var initial = JSON.parse(document.getElementById('inspector-turn').textContent);
  var api = '/api/v1/matches/' + meta.id + '/turns/';
  var draw = window.ReplayLab.renderer(meta.game);
  var PREFETCH = 12;

  var root = document.getElementById('inspector');
  var board = document.getElementById('board');
  var slider = document.getElementById('turn-slider');
  var speed = document.getElementById('speed');
  var number = document.getElementById('turn-number');
  var playButton = root.querySelector('[data-action=play]');

  var cache = new Map([[initial.turn, Promise.resolve(initial)]]);
  var current = initial.turn;
  var timer = null;

  function load(n) {
    if (!cache.has(n)) {
      var p = fetch(api + n, { headers: { Accept: 'application/json' } }).then(function (r) {
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

  function playerName(seat) {
    var p = meta.players[seat];
    return p ? p.name + (p.version ? ' ' + p.version : '') : 'seat ' + seat;
  }

  function describe(e) {
    var s = e.kind;
    if (e.amount) s += ' ' + (e.amount > 0 ? '+' : '') + e.amount;
    if (e.detail) s += ': ' + e.detail;
    return s;
  }

  function render(t) {
    draw(board, t.frame.state, t, meta);

    var cmds = document.querySelector('#commands tbody');
    cmds.replaceChildren();
    meta.players.forEach(function (p) {
      var row = document.createElement('tr');
      cell(row, p.seat);
      cell(row, playerName(p.seat));
      var cmd = t.frame.commands[p.seat];
      cell(row, t.turn === 0 ? '(start)' : cmd ? cmd : '(none)', 'command');
      var mine = t.events.filter(function (e) { return e.seat === p.seat; }).map(describe);
      cell(row, mine.length ? mine.join('; ') : t.turn === 0 ? '' : 'played');
      cmds.appendChild(row);
    });

    // One column per player or unit and one row per metric: metric labels
    // are long and most games have few players.
    var head = document.querySelector('#stats thead');
    var hr = document.createElement('tr');
    hr.appendChild(document.createElement('th'));
    t.stats.forEach(function (s) {
      var th = document.createElement('th');
      th.className = 'num';
      th.textContent = playerName(s.seat) + (s.unit < 0 ? '' : ' / unit ' + s.unit);
      hr.appendChild(th);
    });
    head.replaceChildren(hr);
    var body = document.querySelector('#stats tbody');
    body.replaceChildren();
    var rows = [{ label: 'Alive', value: function (s) { return s.alive ? 'yes' : 'no'; } }];
    meta.metrics.forEach(function (m, i) {
      rows.push({ label: m.label, value: function (s) { return metricText(m, s.values[i]); } });
    });
    rows.forEach(function (r) {
      var row = document.createElement('tr');
      var th = document.createElement('th');
      th.scope = 'row';
      th.textContent = r.label;
      row.appendChild(th);
      t.stats.forEach(function (s) { cell(row, r.value(s), 'num'); });
      body.appendChild(row);
    });

    var list = document.getElementById('events');
    list.replaceChildren();
    t.events.forEach(function (e) {
      var li = document.createElement('li');
      var who = document.createElement('span');
      who.textContent = (e.seat < 0 ? 'game' : playerName(e.seat)) + (e.unit >= 0 ? ' / unit ' + e.unit : '') + ' · ';
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
    history.replaceState(null, '', meta.url + '/turns/' + n);
    document.title = document.title.replace(/turn \d+|turn inspector/, 'turn ' + n);
    return load(n).then(function (t) {
      if (t.turn === current) render(t); // a later request has not overtaken this one
    }, function (err) {
      board.textContent = String(err);
    });
  }

  function prefetch(from) {
    for (var n = from + 1; n <= Math.min(meta.turns, from + PREFETCH); n++) load(n);
  }

  function stop() {
    clearTimeout(timer);
    timer = null;
    playButton.setAttribute('aria-pressed', 'false');
    playButton.textContent = 'Play';
  }

  function tick() {
    if (current >= meta.turns) return stop();
    prefetch(current + 1);
    show(current + 1).then(function () {
      if (timer !== null) timer = setTimeout(tick, Number(speed.value));
    });
  }

  function play() {
    if (timer !== null) return stop();
    if (current >= meta.turns) show(0);
    playButton.setAttribute('aria-pressed', 'true');
    playButton.textContent = 'Pause';
    timer = setTimeout(tick, 0);
  }

  var actions = {
    first: function () { stop(); show(0); },
    prev: function () { stop(); show(current - 1); },
    next: function () { stop(); show(current + 1); prefetch(current); },
    last: function () { stop(); show(meta.turns); },
    play: play
  };

  root.querySelectorAll('[data-action]').forEach(function (b) {
    b.addEventListener('click', function () { actions[b.getAttribute('data-action')](); });
  });
  slider.addEventListener('input', function () { stop(); show(Number(slider.value)); });

  var keys = { ArrowLeft: 'prev', ArrowRight: 'next', ' ': 'play', Home: 'first', End: 'last' };
  document.addEventListener('keydown', function (e) {
    var action = keys[e.key];
    if (!action || e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = e.target.tagName;
    if (tag === 'SELECT' || (tag === 'INPUT' && e.target.type !== 'range') || tag === 'TEXTAREA') return;
    // The keys belong to the inspector, not to the focused button or slider.
    e.preventDefault();
    actions[action]();
  });

  render(initial);
  prefetch(current);
})();

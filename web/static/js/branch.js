// branch.js steps a fork and its parent together on the branch view: one
// turn control (buttons, arrow keys, slider) draws that turn on both
// boards with the game's renderer (renderers.js), from the turn API; a
// match that has ended shows its last turn and says so. Each board lists
// its commands of the turn, those that differ from the other's marked.
// A click on a chart (charts.js draws them) shows the turn under it.
(function () {
  'use strict';
  var meta = JSON.parse(document.getElementById('branch-meta').textContent);
  var root = document.getElementById('branch');
  var slider = document.getElementById('branch-slider');
  var number = document.getElementById('branch-turn');
  var last = Math.max(meta.parent.turns, meta.fork.turns);
  var current = meta.turn;
  // CACHED bounds the turns each side keeps: a turn of a large board is
  // tens of kilobytes, and a long match has thousands.
  var CACHED = 64;

  var sides = ['parent', 'fork'].map(function (name) {
    var box = root.querySelector('[data-side=' + name + ']');
    return {
      meta: meta[name], draw: window.ReplayLab.renderer(meta[name].game), cache: new Map(),
      board: box.querySelector('.board'), turn: box.querySelector('.board-turn'),
      ended: box.querySelector('.board-ended'), commands: box.querySelector('.board-commands')
    };
  });

  function load(side, n) {
    if (!side.cache.has(n)) {
      var p = fetch('/api/v1/matches/' + side.meta.id + '/turns/' + n, { headers: { Accept: 'application/json' } }).then(function (r) {
        if (!r.ok) throw new Error('turn ' + n + ': HTTP ' + r.status);
        return r.json();
      });
      p.catch(function () { side.cache.delete(n); });
      side.cache.set(n, p);
      if (side.cache.size > CACHED) side.cache.delete(side.cache.keys().next().value);
    }
    return side.cache.get(n);
  }

  // listCommands shows a side's commands of turn t, marking those that
  // differ from the other side's of the same turn (other: null when that
  // match has ended).
  function listCommands(side, t, other) {
    side.commands.replaceChildren();
    if (t.turn === 0) return;
    side.meta.players.forEach(function (p) {
      var cmd = t.frame.commands[p.seat] || '';
      var li = window.ReplayLab.html('li', '', window.ReplayLab.seatLabel(side.meta, p.seat) + ': ');
      li.appendChild(window.ReplayLab.html('code', '', cmd || '(none)'));
      if (other && (other.frame.commands[p.seat] || '') !== cmd) {
        li.className = 'differs';
        li.appendChild(window.ReplayLab.html('span', 'muted', ' (differs)'));
      }
      side.commands.appendChild(li);
    });
  }

  // show draws turn n on both boards once both have arrived, so they
  // never show different turns; a side whose match ended before n shows
  // its last turn.
  function show(n) {
    n = Math.max(0, Math.min(last, n));
    current = n;
    slider.value = n;
    number.textContent = n;
    var turns = sides.map(function (side) { return Math.min(n, side.meta.turns); });
    Promise.all(sides.map(function (side, i) { return load(side, turns[i]); })).then(function (ts) {
      if (current !== n) return;
      sides.forEach(function (side, i) {
        side.draw(side.board, ts[i].frame.state, ts[i], side.meta);
        side.turn.textContent = ts[i].turn;
        side.ended.textContent = n > side.meta.turns ? 'ended at turn ' + side.meta.turns + ': its last turn' : '';
        var other = ts[1 - i];
        listCommands(side, ts[i], other.turn === ts[i].turn ? other : null);
      });
      root.setAttribute('data-shown', n);
    }, function (err) {
      sides.forEach(function (side) { side.board.textContent = String(err); });
    });
    // The next turn of both, for a quick step.
    sides.forEach(function (side) { if (n < side.meta.turns) load(side, n + 1); });
  }

  var actions = {
    first: function () { show(0); },
    fork: function () { show(meta.turn); },
    prev: function () { show(current - 1); },
    next: function () { show(current + 1); },
    last: function () { show(last); },
    difference: function () { if (meta.first_difference !== null) show(meta.first_difference); }
  };
  document.querySelectorAll('[data-action]').forEach(function (b) {
    var action = actions[b.getAttribute('data-action')];
    if (action) b.addEventListener('click', action);
  });
  slider.addEventListener('input', function () { show(Number(slider.value)); });
  var keys = { ArrowLeft: 'prev', ArrowRight: 'next', Home: 'first', End: 'last', f: 'fork', d: 'difference' };
  document.addEventListener('keydown', function (e) {
    var action = keys[e.key];
    var tag = e.target.tagName;
    if (!action || e.altKey || e.ctrlKey || e.metaKey || tag === 'SELECT' || tag === 'TEXTAREA' || (tag === 'INPUT' && e.target.type !== 'range')) return;
    e.preventDefault();
    actions[action]();
  });

  // A click in a chart's plot shows the turn under the pointer: the
  // charts drawn already, and those drawn when opened.
  function onClick(chart) {
    chart.getZr().on('click', function (e) {
      var at = [e.offsetX, e.offsetY];
      if (!chart.containPixel('grid', at)) return;
      show(Math.round(chart.convertFromPixel({ gridIndex: 0 }, at)[0]));
      root.scrollIntoView({ block: 'nearest' });
    });
  }
  document.querySelectorAll('.charts .chart').forEach(function (el) {
    var chart = window.echarts && window.echarts.getInstanceByDom(el);
    if (chart) onClick(chart);
  });
  document.addEventListener('chartdrawn', function (e) { onClick(e.detail); });

  show(current);
})();

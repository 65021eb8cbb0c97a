// snake.js draws a Snake Battle (CodeBattle 2020) frame: the board's
// walls, start floors, apples, stones, gold and pills from the glyph rows
// (rules B11), and every snake from its body (tail to head) in its seat's
// colour with a head looking where it goes: fury glows red, a flying snake
// is see-through, a sleeping one dimmed with closed eyes, a dead one grey.
// Above the board the round and its clock; under it a strip per snake and,
// on request, the glyph rows as the bots receive them.
(function () {
  'use strict';
  var C = 20; // SVG units per cell
  var ROUNDS = 3;
  var DIRS = { UP: [0, -1], DOWN: [0, 1], LEFT: [-1, 0], RIGHT: [1, 0] };
  var OBJECTS = { ' ': 'empty', '☼': 'wall', '#': 'start floor', '○': 'apple', '●': 'stone', '$': 'gold', '®': 'fury pill', '©': 'flying pill' };
  var showGlyphs = false; // the raw rows' toggle, kept from turn to turn

  var el = ReplayLab.svg;

  var html = ReplayLab.html;

  var color = ReplayLab.seatColor;

  function defs(svg) {
    var d = el('defs');
    var floor = el('pattern', { id: 'snake-floor', width: 2 * C, height: 2 * C, patternUnits: 'userSpaceOnUse' });
    floor.appendChild(el('rect', { width: 2 * C, height: 2 * C, fill: '#1d2430' }));
    floor.appendChild(el('rect', { width: C, height: C, fill: '#212936' }));
    floor.appendChild(el('rect', { x: C, y: C, width: C, height: C, fill: '#212936' }));
    d.appendChild(floor);
    var glow = el('filter', { id: 'snake-fury', x: '-20%', y: '-20%', width: '140%', height: '140%' });
    glow.appendChild(el('feGaussianBlur', { stdDeviation: 3 }));
    d.appendChild(glow);
    svg.appendChild(d);
  }

  // object draws what lies on a cell no snake covers.
  function object(g, kind, x, y) {
    var X = x * C, Y = y * C, cx = X + C / 2, cy = Y + C / 2;
    switch (kind) {
      case 'wall':
        g.appendChild(el('rect', { x: X, y: Y, width: C, height: C, fill: '#6d7687' }));
        g.appendChild(el('path', { d: 'M' + X + ' ' + (Y + C) + 'V' + Y + 'H' + (X + C), stroke: '#9aa3b3', 'stroke-width': 2, fill: 'none' }));
        g.appendChild(el('path', { d: 'M' + X + ' ' + (Y + C - 1) + 'H' + (X + C - 1) + 'V' + Y, stroke: '#4a5160', 'stroke-width': 2, fill: 'none' }));
        g.appendChild(el('path', { d: 'M' + X + ' ' + cy + 'H' + (X + C) + 'M' + cx + ' ' + Y + 'V' + cy + 'M' + (X + 5) + ' ' + cy + 'V' + (Y + C), stroke: '#596170', 'stroke-width': 1 }));
        break;
      case 'start floor':
        g.appendChild(el('rect', { x: X + 1, y: Y + 1, width: C - 2, height: C - 2, rx: 2, fill: '#463a66', stroke: '#6b5a9a', 'stroke-width': 1.5 }));
        g.appendChild(el('path', { d: 'M' + (X + 6) + ' ' + (Y + 5) + 'v10 M' + (X + 14) + ' ' + (Y + 5) + 'v10 M' + (X + 4) + ' ' + (Y + 8) + 'h12 M' + (X + 4) + ' ' + (Y + 12) + 'h12', stroke: '#8c7bc4', 'stroke-width': 1.2 }));
        break;
      case 'apple':
        g.appendChild(el('circle', { cx: cx, cy: cy + 1.5, r: 6.5, fill: '#e53935', 'data-object': 'apple' }));
        g.appendChild(el('circle', { cx: cx - 2.5, cy: cy - 1, r: 1.8, fill: '#ff8a80' }));
        g.appendChild(el('path', { d: 'M' + cx + ' ' + (cy - 4) + ' q1 -3 3 -4', stroke: '#6d4c41', 'stroke-width': 1.4, fill: 'none' }));
        g.appendChild(el('ellipse', { cx: cx + 3.5, cy: cy - 6.5, rx: 3, ry: 1.6, fill: '#66bb6a', transform: 'rotate(-30 ' + (cx + 3.5) + ' ' + (cy - 6.5) + ')' }));
        break;
      case 'stone':
        g.appendChild(el('path', { d: 'M' + (X + 3) + ' ' + (Y + 14) + ' l3 -8 l6 -2 l5 4 l1 7 l-5 3 l-7 0 z', fill: '#9e9e9e', stroke: '#616161', 'stroke-width': 1.2, 'data-object': 'stone' }));
        g.appendChild(el('path', { d: 'M' + (X + 7) + ' ' + (Y + 8) + ' l4 -1.5', stroke: '#e0e0e0', 'stroke-width': 1.5 }));
        break;
      case 'gold':
        g.appendChild(el('circle', { cx: cx, cy: cy, r: 7.5, fill: '#ffca28', stroke: '#b8860b', 'stroke-width': 1.5, 'data-object': 'gold' }));
        g.appendChild(el('text', { x: cx, y: cy + 3.8, 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 700, fill: '#8d6e00', 'font-family': 'system-ui, sans-serif' }, '$'));
        break;
      case 'fury pill':
      case 'flying pill':
        var fury = kind === 'fury pill';
        var pill = el('g', { transform: 'rotate(-40 ' + cx + ' ' + cy + ')', 'data-object': fury ? 'fury' : 'flying' });
        pill.appendChild(el('rect', { x: cx - 8, y: cy - 4, width: 16, height: 8, rx: 4, fill: '#fafafa', stroke: '#333', 'stroke-width': 0.8 }));
        pill.appendChild(el('path', { d: 'M' + cx + ' ' + (cy - 4) + 'h-4 a4 4 0 0 0 0 8 h4 z', fill: fury ? '#ff1744' : '#29b6f6' }));
        g.appendChild(pill);
        if (!fury) g.appendChild(el('path', { d: 'M' + (cx + 2) + ' ' + (cy - 6) + ' q4 -4 8 -2 q-3 1 -4 4 z', fill: '#b3e5fc' }));
        break;
    }
  }

  // runs splits a body into runs of neighbouring cells.
  function runs(body) {
    var out = [], cur = [];
    body.forEach(function (p, i) {
      if (i > 0) {
        var q = body[i - 1];
        if (Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) !== 1) { out.push(cur); cur = []; }
      }
      cur.push(p);
    });
    if (cur.length) out.push(cur);
    return out;
  }

  function points(run) {
    return run.map(function (p) { return ((p[0] + 0.5) * C) + ',' + ((p[1] + 0.5) * C); }).join(' ');
  }

  function state(s) {
    if (!s.alive) return 'dead';
    if (s.sleeping) return 'sleeping';
    if (s.flying > 0) return 'flying';
    if (s.fury > 0) return 'fury';
    return 'moving';
  }

  function snake(g, s, name) {
    var body = s.body || [];
    if (!body.length) return;
    var st = state(s);
    var fill = st === 'dead' ? '#8a8f98' : color(s.seat);
    var e = el('g', { 'data-snake': s.seat, 'data-state': st, 'data-head': body[body.length - 1].join(','), 'class': 'snake ' + st });
    if (st === 'sleeping') e.setAttribute('opacity', 0.5);
    if (st === 'flying') e.setAttribute('opacity', 0.55);
    if (st === 'dead') e.setAttribute('opacity', 0.75);
    var parts = runs(body);
    if (s.fury > 0 && s.alive) {
      parts.forEach(function (r) {
        e.appendChild(el('polyline', { points: points(r), fill: 'none', stroke: '#ff1744', 'stroke-width': 24, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', filter: 'url(#snake-fury)' }));
      });
    }
    parts.forEach(function (r) {
      e.appendChild(el('polyline', { points: points(r), fill: 'none', stroke: '#0b0e13', 'stroke-opacity': 0.7, 'stroke-width': 15, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }));
      e.appendChild(el('polyline', { points: points(r), fill: 'none', stroke: fill, 'stroke-width': 12, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }));
      e.appendChild(el('polyline', { points: points(r), fill: 'none', stroke: '#fff', 'stroke-opacity': 0.25, 'stroke-width': 3, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'stroke-dasharray': '2 6' }));
    });
    // The head: a disc with eyes toward the direction.
    var h = body[body.length - 1];
    var hx = (h[0] + 0.5) * C, hy = (h[1] + 0.5) * C;
    var d = DIRS[s.direction] || [0, -1];
    var px = -d[1], py = d[0]; // perpendicular
    e.appendChild(el('circle', { cx: hx, cy: hy, r: 8.5, fill: fill, stroke: s.fury > 0 && s.alive ? '#ff1744' : '#0b0e13', 'stroke-width': s.fury > 0 && s.alive ? 2.5 : 1.5, 'class': 'head' }));
    [-1, 1].forEach(function (side) {
      var ex = hx + d[0] * 3 + px * side * 3.6, ey = hy + d[1] * 3 + py * side * 3.6;
      if (st === 'dead') {
        e.appendChild(el('path', { d: 'M' + (ex - 2) + ' ' + (ey - 2) + 'l4 4m0 -4l-4 4', stroke: '#111', 'stroke-width': 1.4 }));
      } else if (st === 'sleeping') {
        e.appendChild(el('path', { d: 'M' + (ex - px * 2.2) + ' ' + (ey - py * 2.2) + 'l' + (px * 4.4) + ' ' + (py * 4.4), stroke: '#111', 'stroke-width': 1.4 }));
      } else {
        e.appendChild(el('circle', { cx: ex, cy: ey, r: 2.6, fill: '#fff' }));
        e.appendChild(el('circle', { cx: ex + d[0] * 1.1, cy: ey + d[1] * 1.1, r: 1.3, fill: '#111' }));
      }
    });
    if (st === 'flying') {
      // Wings behind the head.
      [-1, 1].forEach(function (side) {
        var wx = hx - d[0] * 4 + px * side * 9, wy = hy - d[1] * 4 + py * side * 9;
        e.appendChild(el('ellipse', { cx: wx, cy: wy, rx: 4.5, ry: 2.5, fill: '#e1f5fe', stroke: '#4fc3f7', 'stroke-width': 1, transform: 'rotate(' + (Math.atan2(py, px) * 180 / Math.PI) + ' ' + wx + ' ' + wy + ')' }));
      });
    }
    e.appendChild(el('title', {}, name + ': ' + st + ', length ' + s.length + ', score ' + s.score +
      ', stones ' + s.stones + (s.fury > 0 ? ', fury ' + s.fury : '') + (s.flying > 0 ? ', flying ' + s.flying : '') +
      ', head (' + h[0] + ', ' + h[1] + ') ' + s.direction));
    g.appendChild(e);
  }

  function count(n, what) { n = n || 0; return n + ' ' + what + (n === 1 ? '' : 's'); }

  function strip(snakes, meta) {
    var wrap = html('div', 'scroll');
    var table = html('table', 'snake-strip');
    var hr = html('tr');
    [['Snake', ''], ['Length', 'num'], ['Score', 'num'], ['Stones', 'num'], ['Fury', ''], ['Rounds won', 'num'], ['State', '']].forEach(function (h) {
      hr.appendChild(html('th', h[1], h[0]));
    });
    var thead = html('thead');
    thead.appendChild(hr);
    var tbody = html('tbody');
    snakes.forEach(function (s) {
      var r = html('tr');
      r.setAttribute('data-seat', s.seat);
      var who = html('td', 'who');
      var dot = html('span', 'swatch');
      dot.style.background = color(s.seat);
      who.append(dot, document.createTextNode(ReplayLab.seatLabel(meta, s.seat)));
      r.appendChild(who);
      r.appendChild(html('td', 'num', String(s.length)));
      r.appendChild(html('td', 'num', String(s.score)));
      r.appendChild(html('td', 'num', String(s.stones)));
      var fury = html('td', 'fury');
      if (s.fury > 0) {
        var ticks = html('span', 'ticks');
        ticks.style.width = Math.min(s.fury, 10) * 0.45 + 'em';
        fury.append(ticks, document.createTextNode(' ' + s.fury));
      }
      r.appendChild(fury);
      r.appendChild(html('td', 'num', String(s.rounds_won || 0)));
      var st = state(s);
      if (st === 'flying') st += ' ' + s.flying;
      if (s.pending_cut > 0) st += ', loses ' + s.pending_cut + ' next move';
      r.appendChild(html('td', '', st));
      tbody.appendChild(r);
    });
    table.append(thead, tbody);
    wrap.appendChild(ReplayLab.phoneCards(table));
    return wrap;
  }

  function legend() {
    var ul = html('ul', 'legend');
    function item(label, draw) {
      var s = el('svg', { viewBox: '0 0 20 20', width: 16, height: 16, 'aria-hidden': 'true' });
      s.appendChild(el('rect', { width: 20, height: 20, fill: '#1d2430' }));
      draw(s);
      var li = html('li');
      li.append(s, html('span', '', label));
      ul.appendChild(li);
    }
    ['wall', 'start floor', 'apple', 'stone', 'gold', 'fury pill', 'flying pill'].forEach(function (k) {
      item(k, function (s) { object(s, k, 0, 0); });
    });
    function line(s, attrs) {
      var a = { points: '3,10 17,10', fill: 'none', 'stroke-width': 8, 'stroke-linecap': 'round', stroke: color(0) };
      Object.keys(attrs).forEach(function (k) { a[k] = attrs[k]; });
      s.appendChild(el('polyline', a));
    }
    item('fury', function (s) { line(s, { stroke: '#ff1744', 'stroke-width': 14, opacity: 0.6 }); line(s, {}); });
    item('flying', function (s) { line(s, { opacity: 0.55 }); });
    item('sleeping', function (s) { line(s, { opacity: 0.5 }); });
    item('dead', function (s) { line(s, { stroke: '#8a8f98' }); });
    return ul;
  }

  function draw(container, st, turn, meta) {
    var rows = (st.board || []).map(function (r) { return Array.from(r); });
    var size = rows.length, cols = size ? rows[0].length : 0;
    var n = turn && typeof turn.turn === 'number' ? turn.turn : st.turn;
    var snakes = st.snakes || [];
    var svg = el('svg', {
      viewBox: '0 0 ' + cols * C + ' ' + size * C, role: 'img', 'class': 'board-snake',
      'aria-label': 'Snake Battle board, turn ' + n, 'data-board': (st.board || []).join('|')
    });
    defs(svg);
    ReplayLab.debugCells(svg, C); // a bot's [x, y] is column x, row y from the top
    svg.appendChild(el('rect', { width: cols * C, height: size * C, fill: 'url(#snake-floor)' }));

    // Under a snake the glyph is the snake's; a sleeping snake lies on its
    // start: tail on the wall, head on the start floor (B11).
    var under = {};
    snakes.forEach(function (s) {
      var b = s.body || [];
      if (s.sleeping && b.length) {
        under[b[0].join(',')] = 'wall';
        under[b[b.length - 1].join(',')] = 'start floor';
      }
    });
    var objects = el('g');
    rows.forEach(function (row, y) {
      row.forEach(function (g, x) {
        var kind = OBJECTS[g];
        if (kind === undefined) {
          kind = under[x + ',' + y] || (x === 0 || y === 0 || x === cols - 1 || y === size - 1 ? 'wall' : 'empty');
        }
        if (kind !== 'empty') object(objects, kind, x, y);
      });
    });
    svg.appendChild(objects);

    // Corpses and sleepers first, flying snakes last (on top).
    var rank = { dead: 0, sleeping: 1, moving: 2, fury: 2, flying: 3 };
    var layer = el('g');
    snakes.slice().sort(function (a, b) {
      return rank[state(a)] - rank[state(b)] || a.seat - b.seat;
    }).forEach(function (s) { snake(layer, s, ReplayLab.seatLabel(meta, s.seat)); });
    svg.appendChild(layer);

    var status = html('p', 'board-status');
    var round = st.round > 0 ? 'Round ' + st.round + ' of ' + ROUNDS : 'Before round 1';
    var clock = st.over ? 'match over' : st.countdown > 0 ? 'next round in ' + st.countdown : st.phase;
    var things = [count(st.apples, 'apple'), count(st.stones, 'stone'), (st.gold || 0) + ' gold', count(st.fury_pills, 'fury pill')];
    if (st.flying_pills) things.push(count(st.flying_pills, 'flying pill'));
    status.textContent = round + ' · ' + clock + ' · ' + things.join(', ');

    // The toggle event arrives a task after a click, so a turn drawn in
    // between would miss it: read the open state off the rows being replaced.
    var shown = container.querySelector('details.glyphs');
    if (shown) showGlyphs = shown.open;
    var raw = html('details', 'glyphs');
    raw.open = showGlyphs;
    raw.appendChild(html('summary', '', 'Board in glyphs as a spectator sees it (every snake in enemy glyphs)'));
    raw.appendChild(html('pre', '', (st.board || []).join('\n')));

    container.replaceChildren(status, svg, strip(snakes, meta), legend(), raw);
  }

  window.ReplayLab.register('snake', draw);
})();

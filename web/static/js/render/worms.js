// worms.js draws a Worms (Entelect 2019) frame: the 33x33 map ('.' air,
// '#' dirt, ' ' deep space, '~' lava) with the lava's safe circle, the
// health packs, every worm on the map as a badge in its player's colour
// labelled like the original ("11" = player 1's worm 1) with an HP bar, the
// active worm ringed and frozen worms iced over, and the round's shots,
// banana bombs and snowballs. Under the board: a table of the worms, a
// legend and a readout of the cell under the pointer.
(function () {
  'use strict';
  var C = 20;      // SVG units per cell
  var MARGIN = 14; // room for the coordinate labels on the top and left
  var TERRAIN = { '.': '#d9ecf7', '#': '#8a6240', ' ': '#121628', '~': '#e8521f' };
  var TERRAIN_NAME = { '.': 'air', '#': 'dirt', ' ': 'deep space', '~': 'lava' };
  // Max HP by profession (rules §3); packs can push HP above it.
  var MAX_HP = { Commando: 150, Agent: 100, Technologist: 100 };
  var BANANA_RADIUS = 2; // euclid, rules §7.5
  var SNOW_RADIUS = 1;   // the 3x3 square, rules §7.6

  var el = ReplayLab.svg;

  var html = ReplayLab.html;

  var star = ReplayLab.star;

  function mid(v) { return (v + 0.5) * C; }

  function wormLabel(w) { return String(w.player + 1) + String(w.id); }

  function hpColor(f) { return f > 0.6 ? '#3bb54a' : f > 0.3 ? '#f0b400' : '#e03a2f'; }

  function defs(svg) {
    var d = el('defs');
    var dirt = el('pattern', { id: 'worms-dirt', width: C, height: C, patternUnits: 'userSpaceOnUse' });
    dirt.appendChild(el('rect', { width: C, height: C, fill: TERRAIN['#'] }));
    [[4, 5, 1.6], [13, 3, 1.2], [9, 12, 1.8], [16, 15, 1.3], [3, 16, 1.1]].forEach(function (p) {
      dirt.appendChild(el('circle', { cx: p[0], cy: p[1], r: p[2], fill: '#6f4c30' }));
    });
    d.appendChild(dirt);
    var lava = el('pattern', { id: 'worms-lava', width: C, height: C, patternUnits: 'userSpaceOnUse' });
    lava.appendChild(el('rect', { width: C, height: C, fill: TERRAIN['~'] }));
    lava.appendChild(el('path', { d: 'M0 7 q5 -4 10 0 t10 0 M0 15 q5 -4 10 0 t10 0', stroke: '#ffb23a', 'stroke-width': 2, fill: 'none' }));
    d.appendChild(lava);
    svg.appendChild(d);
  }

  // terrain draws the map as runs of equal cells over an air background.
  function terrain(svg, map) {
    var g = el('g', { 'shape-rendering': 'crispEdges' });
    g.appendChild(el('rect', { x: 0, y: 0, width: map.length * C, height: map.length * C, fill: TERRAIN['.'] }));
    var fill = { '#': 'url(#worms-dirt)', ' ': TERRAIN[' '], '~': 'url(#worms-lava)' };
    map.forEach(function (row, y) {
      for (var x = 0; x < row.length;) {
        var t = row[x], end = x + 1;
        while (end < row.length && row[end] === t) end++;
        if (t !== '.') {
          g.appendChild(el('rect', { x: x * C, y: y * C, width: (end - x) * C, height: C, fill: fill[t] || '#ccc', 'data-cell': t }));
        }
        x = end;
      }
    });
    svg.appendChild(g);
    // A few fixed stars in deep space.
    var stars = el('g', { fill: '#e8ecff', opacity: 0.7 });
    map.forEach(function (row, y) {
      for (var x = 0; x < row.length; x++) {
        if (row[x] === ' ' && (x * 7 + y * 13) % 11 === 0) {
          stars.appendChild(el('circle', { cx: x * C + 4 + (x * y) % 12, cy: y * C + 4 + (x + 3 * y) % 12, r: 0.9 }));
        }
      }
    });
    svg.appendChild(stars);
  }

  function labels(svg, size) {
    var g = el('g', { 'font-size': 9, fill: '#5a6475', 'text-anchor': 'middle', 'font-family': 'ui-monospace, monospace' });
    for (var i = 0; i < size; i += 4) {
      g.appendChild(el('text', { x: mid(i), y: -4 }, String(i)));
      g.appendChild(el('text', { x: -MARGIN / 2, y: mid(i) + 3 }, String(i)));
    }
    svg.appendChild(g);
  }

  function pack(g, p) {
    var x = p.x * C, y = p.y * C;
    var e = el('g', { 'data-pack': p.x + ',' + p.y });
    e.appendChild(el('rect', { x: x + 3, y: y + 3, width: C - 6, height: C - 6, rx: 3, fill: '#fff', stroke: '#b71c1c', 'stroke-width': 1 }));
    e.appendChild(el('path', { d: 'M' + mid(p.x) + ' ' + (y + 6) + ' v' + (C - 12) + ' M' + (x + 6) + ' ' + mid(p.y) + ' h' + (C - 12), stroke: '#e53935', 'stroke-width': 3 }));
    e.appendChild(el('title', {}, 'health pack (+10 HP) at (' + p.x + ', ' + p.y + ')'));
    g.appendChild(e);
  }

  // area tints the cells a banana or snowball reaches and rings them.
  function area(g, s, banana) {
    var t = s.to, r = banana ? BANANA_RADIUS : SNOW_RADIUS;
    var e = el('g', { 'data-throw': s.kind });
    for (var dy = -r; dy <= r; dy++) {
      for (var dx = -r; dx <= r; dx++) {
        if (banana && dx * dx + dy * dy > r * r) continue;
        var x = t.x + dx, y = t.y + dy;
        if (x < 0 || y < 0 || x > 32 || y > 32) continue;
        e.appendChild(el('rect', { x: x * C, y: y * C, width: C, height: C, fill: banana ? '#ff9800' : '#7fdcff', opacity: 0.35 }));
      }
    }
    if (banana) {
      e.appendChild(el('circle', { cx: mid(t.x), cy: mid(t.y), r: (r + 0.5) * C, fill: 'none', stroke: '#e65100', 'stroke-width': 2, 'stroke-dasharray': '6 4' }));
    } else {
      e.appendChild(el('rect', { x: (t.x - r) * C, y: (t.y - r) * C, width: (2 * r + 1) * C, height: (2 * r + 1) * C, rx: 4, fill: 'none', stroke: '#0288d1', 'stroke-width': 2, 'stroke-dasharray': '6 4' }));
    }
    g.appendChild(e);
  }

  function worm(g, w) {
    var cx = mid(w.x), cy = w.y * C + 11.8, color = w.alive ? ReplayLab.seatColor(w.player) : '#8a8f98';
    var e = el('g', { 'data-worm': wormLabel(w), 'data-at': w.x + ',' + w.y, 'class': 'worm' + (w.active ? ' active' : '') + (w.frozen > 0 ? ' frozen' : '') + (w.alive ? '' : ' dead') });
    if (w.active && w.alive) {
      e.appendChild(el('circle', { cx: cx, cy: cy, r: 11.5, fill: 'none', stroke: '#ffd400', 'stroke-width': 3.5 }));
    }
    e.appendChild(el('circle', { cx: cx, cy: cy, r: 8.8, fill: color, stroke: '#fff', 'stroke-width': 1.2 }));
    e.appendChild(el('text', { x: cx, y: cy + 3.6, 'text-anchor': 'middle', 'font-size': 10.5, 'font-weight': 700, fill: '#fff', 'font-family': 'system-ui, sans-serif' }, wormLabel(w)));
    if (!w.alive) {
      e.appendChild(el('path', { d: 'M' + (cx - 6) + ' ' + (cy - 6) + ' l12 12 m0 -12 l-12 12', stroke: '#222', 'stroke-width': 1.6, opacity: 0.7 }));
    }
    if (w.frozen > 0 && w.alive) {
      e.appendChild(el('rect', { x: w.x * C - 1, y: w.y * C - 1, width: C + 2, height: C + 2, rx: 5, fill: '#c9f1ff', 'fill-opacity': 0.35, stroke: '#5fd0ff', 'stroke-width': 2.5 }));
      e.appendChild(el('text', { x: w.x * C + C - 1, y: w.y * C + 6, 'text-anchor': 'end', 'font-size': 7, 'font-weight': 700, fill: '#035a86' }, String(w.frozen)));
    }
    // HP bar across the top of the cell.
    var max = MAX_HP[w.profession] || 150, f = Math.max(0, Math.min(1, w.hp / max));
    e.appendChild(el('rect', { x: w.x * C + 1.5, y: w.y * C + 0.5, width: C - 3, height: 3.5, fill: '#000', 'fill-opacity': 0.55 }));
    if (f > 0) e.appendChild(el('rect', { x: w.x * C + 1.5, y: w.y * C + 0.5, width: (C - 3) * f, height: 3.5, fill: hpColor(f), 'data-hp': w.hp }));
    var tip = 'worm ' + wormLabel(w) + ' (Seat ' + (w.player + 1) + ' ' + w.profession + ') ' + w.hp + '/' + max + ' HP at (' + w.x + ', ' + w.y + ')';
    if (w.active) tip += ', active';
    if (w.frozen > 0) tip += ', frozen ' + w.frozen;
    if (!w.alive) tip += ', dead';
    e.appendChild(el('title', {}, tip));
    g.appendChild(e);
  }

  function shot(g, s) {
    var x1 = mid(s.from.x), y1 = mid(s.from.y), x2 = mid(s.to.x), y2 = mid(s.to.y);
    var dx = x2 - x1, dy = y2 - y1, len = Math.sqrt(dx * dx + dy * dy) || 1;
    var e = el('g', { 'data-shot': s.kind, 'data-result': s.result });
    e.appendChild(el('title', {}, 'Seat ' + (s.seat + 1) + ' worm ' + (s.seat + 1) + s.worm + ': ' + s.kind + ' to (' + s.to.x + ', ' + s.to.y + ') ' + s.result + (s.hits ? ', ' + s.hits + ' worm' + (s.hits > 1 ? 's' : '') + ' hit' : '')));
    if (s.kind === 'shoot') {
      // Start and, on a hit, end at the badges' edges, so both ids stay
      // readable; the hit's burst is drawn under the target (impact).
      var hit = s.result === 'HIT', cut = Math.min(10, len / 2);
      var sx = x1 + dx / len * cut, sy = y1 + dy / len * cut;
      var ex = hit ? x2 - dx / len * cut : x2, ey = hit ? y2 - dy / len * cut : y2;
      e.appendChild(el('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: '#000', 'stroke-opacity': 0.4, 'stroke-width': 4.5, 'stroke-linecap': 'round' }));
      e.appendChild(el('line', { x1: sx, y1: sy, x2: ex, y2: ey, stroke: hit ? '#ff2d2d' : '#ffffff', 'stroke-width': 2.2, 'stroke-linecap': 'round', 'stroke-dasharray': hit ? 'none' : '4 3' }));
      if (!hit) {
        e.appendChild(el('path', { d: 'M' + (x2 - 4) + ' ' + (y2 - 4) + ' l8 8 m0 -8 l-8 8', stroke: '#000', 'stroke-width': 4, 'stroke-opacity': 0.4 }));
        e.appendChild(el('path', { d: 'M' + (x2 - 4) + ' ' + (y2 - 4) + ' l8 8 m0 -8 l-8 8', stroke: '#fff', 'stroke-width': 2 }));
      }
    } else {
      // A throw arcs from the thrower to its target.
      var banana = s.kind === 'banana';
      var color = banana ? '#ffcc00' : '#bff0ff';
      var qx = (x1 + x2) / 2, qy = (y1 + y2) / 2 - 0.35 * len;
      // Leave the thrower's badge toward the control point.
      var ux = qx - x1, uy = qy - y1, ul = Math.sqrt(ux * ux + uy * uy) || 1;
      var d = 'M' + (x1 + ux / ul * 9) + ' ' + (y1 + uy / ul * 9) + ' Q' + qx + ' ' + qy + ' ' + x2 + ' ' + y2;
      e.appendChild(el('path', { d: d, fill: 'none', stroke: '#000', 'stroke-opacity': 0.4, 'stroke-width': 4 }));
      e.appendChild(el('path', { d: d, fill: 'none', stroke: color, 'stroke-width': 2, 'stroke-dasharray': '5 3' }));
    }
    g.appendChild(e);
  }

  // impact marks, under the worms, where a shot hit or a throw landed.
  function impact(g, s) {
    var x = mid(s.to.x), y = mid(s.to.y);
    if (s.kind === 'shoot') {
      if (s.result === 'HIT') g.appendChild(el('path', { d: star(x, y, 14, 8.5), fill: '#ffe14d', stroke: '#ff2d2d', 'stroke-width': 1.2 }));
    } else if (s.kind === 'banana') {
      g.appendChild(el('path', { d: 'M' + (x - 8) + ' ' + (y - 3) + ' q8 13 16 0 q-8 6 -16 0 z', fill: '#ffd600', stroke: '#8d6e00', 'stroke-width': 1 }));
    } else {
      g.appendChild(el('circle', { cx: x, cy: y, r: 6, fill: '#f4fdff', stroke: '#0288d1', 'stroke-width': 1.5 }));
    }
  }

  function swatch(draw) {
    var s = el('svg', { viewBox: '0 0 20 20', width: 16, height: 16, 'aria-hidden': 'true' });
    draw(s);
    return s;
  }

  function legend() {
    var items = [
      ['air', function (s) { s.appendChild(el('rect', { width: 20, height: 20, fill: TERRAIN['.'], stroke: '#9aa' })); }],
      ['dirt', function (s) { s.appendChild(el('rect', { width: 20, height: 20, fill: TERRAIN['#'] })); }],
      ['deep space', function (s) { s.appendChild(el('rect', { width: 20, height: 20, fill: TERRAIN[' '] })); }],
      ['lava', function (s) { s.appendChild(el('rect', { width: 20, height: 20, fill: TERRAIN['~'] })); }],
      ['lava safe circle', function (s) { s.appendChild(el('circle', { cx: 10, cy: 10, r: 8, fill: 'none', stroke: '#ff6d00', 'stroke-width': 2.5, 'stroke-dasharray': '4 3' })); }],
      ['health pack', function (s) { pack(s, { x: 0, y: 0 }); }],
      ['active worm', function (s) { s.appendChild(el('circle', { cx: 10, cy: 10, r: 8, fill: ReplayLab.seatColor(0), stroke: '#ffd400', 'stroke-width': 3 })); }],
      ['frozen', function (s) { s.appendChild(el('rect', { x: 1, y: 1, width: 18, height: 18, rx: 4, fill: '#c9f1ff', stroke: '#5fd0ff', 'stroke-width': 2.5 })); }],
      ['shot hit', function (s) { s.appendChild(el('path', { d: star(14, 6, 6, 3.5), fill: '#ffe14d', stroke: '#ff2d2d', 'stroke-width': 1 })); s.appendChild(el('line', { x1: 1, y1: 19, x2: 11, y2: 9, stroke: '#ff2d2d', 'stroke-width': 3 })); }],
      ['shot missed', function (s) { s.appendChild(el('rect', { width: 20, height: 20, fill: '#5a6475' })); s.appendChild(el('line', { x1: 1, y1: 19, x2: 19, y2: 1, stroke: '#fff', 'stroke-width': 2.5, 'stroke-dasharray': '4 3' })); }],
      ['banana blast', function (s) { s.appendChild(el('circle', { cx: 10, cy: 10, r: 8, fill: '#ff9800', 'fill-opacity': 0.4, stroke: '#e65100', 'stroke-width': 2 })); }],
      ['snowball freeze', function (s) { s.appendChild(el('rect', { x: 2, y: 2, width: 16, height: 16, rx: 3, fill: '#7fdcff', 'fill-opacity': 0.5, stroke: '#0288d1', 'stroke-width': 2 })); }]
    ];
    var ul = html('ul', 'legend');
    items.forEach(function (it) {
      var li = html('li');
      li.append(swatch(it[1]), html('span', '', it[0]));
      ul.appendChild(li);
    });
    return ul;
  }

  // roster is a table of the worms by player: what the board can't show.
  function roster(state, meta) {
    var wrap = html('div', 'scroll');
    var table = html('table', 'roster');
    var head = html('tr');
    ['Worm', 'Profession', 'HP', 'At', 'State', 'Ammo'].forEach(function (h, i) {
      var th = html('th', i === 2 ? 'num' : '', h);
      head.appendChild(th);
    });
    var thead = html('thead');
    thead.appendChild(head);
    var tbody = html('tbody');
    (state.players || []).forEach(function (p, seat) {
      var row = html('tr', 'player-row');
      var th = html('th', '');
      th.colSpan = 6;
      var dot = html('span', 'swatch');
      dot.style.background = ReplayLab.seatColor(seat);
      th.append(dot, document.createTextNode(ReplayLab.seatLabel(meta, seat) +
        ' · score ' + p.score + ' · health ' + p.health + (p.disqualified ? ' · disqualified' : '') +
        (state.ruleset === 'final' ? ' · selects left ' + p.select_tokens : '')));
      row.appendChild(th);
      tbody.appendChild(row);
      (state.worms || []).filter(function (w) { return w.player === seat; }).forEach(function (w) {
        var r = html('tr');
        r.appendChild(html('td', 'id', wormLabel(w)));
        r.appendChild(html('td', '', w.profession));
        r.appendChild(html('td', 'num', String(w.hp)));
        r.appendChild(html('td', '', w.on_map ? '(' + w.x + ', ' + w.y + ')' : '–'));
        var st = [];
        if (!w.alive) st.push('dead');
        if (w.active && w.alive) st.push('active');
        if (w.frozen > 0) st.push('frozen ' + w.frozen);
        r.appendChild(html('td', '', st.join(', ')));
        var ammo = [];
        if (w.profession === 'Agent') ammo.push(w.bananas + ' banana' + (w.bananas === 1 ? '' : 's'));
        if (w.profession === 'Technologist') ammo.push(w.snowballs + ' snowball' + (w.snowballs === 1 ? '' : 's'));
        r.appendChild(html('td', '', ammo.join(', ')));
        tbody.appendChild(r);
      });
    });
    table.append(thead, tbody);
    wrap.appendChild(ReplayLab.phoneCards(table));
    return wrap;
  }

  function draw(container, state, turn, meta) {
    var map = state.map || [];
    var size = map.length;
    var n = turn && typeof turn.turn === 'number' ? turn.turn : state.round;
    var svg = el('svg', {
      viewBox: [-MARGIN, -MARGIN, size * C + MARGIN + 2, size * C + MARGIN + 2].join(' '),
      role: 'img', 'class': 'board-worms', 'aria-label': 'Worms board, turn ' + n,
      'data-board': map.join('|'), 'data-round': state.round
    });
    defs(svg);
    ReplayLab.debugCells(svg, C); // a bot's [x, y] is the map's cell x, y
    labels(svg, size);
    terrain(svg, map);
    if (state.lava_radius > 0) {
      svg.appendChild(el('circle', { cx: mid(16), cy: mid(16), r: state.lava_radius * C, fill: 'none', stroke: '#ff6d00', 'stroke-width': 2.5, 'stroke-dasharray': '8 5', 'data-lava-radius': state.lava_radius }));
    }
    var packs = el('g');
    (state.health_packs || []).forEach(function (p) { pack(packs, p); });
    svg.appendChild(packs);
    var shots = state.shots || [];
    var areas = el('g');
    shots.forEach(function (s) {
      if ((s.kind === 'banana' || s.kind === 'snowball') && s.result !== 'DEEP_SPACE') area(areas, s, s.kind === 'banana');
    });
    shots.forEach(function (s) { impact(areas, s); });
    svg.appendChild(areas);
    var worms = el('g');
    // The dead first, so a living worm is never hidden by a corpse.
    (state.worms || []).filter(function (w) { return w.on_map; })
      .sort(function (a, b) { return (a.alive ? 1 : 0) - (b.alive ? 1 : 0); })
      .forEach(function (w) { worm(worms, w); });
    svg.appendChild(worms);
    var lines = el('g');
    shots.forEach(function (s) { shot(lines, s); });
    svg.appendChild(lines);

    var status = html('p', 'board-status');
    var bits = ['Round ' + state.round + ' of ' + state.max_rounds, state.ruleset + ' rules'];
    if (state.lava_radius > 0) bits.push('lava safe radius ' + (Math.round(state.lava_radius * 10) / 10));
    bits.push(shots.length ? shots.length + ' attack' + (shots.length > 1 ? 's' : '') + ' this round' : 'no attacks this round');
    status.textContent = bits.join(' · ');

    var readout = html('p', 'board-readout', 'Point at a cell for its coordinates.');
    svg.addEventListener('mousemove', function (e) {
      var m = svg.getScreenCTM();
      if (!m) return;
      var p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
      var x = Math.floor(p.x / C), y = Math.floor(p.y / C);
      if (x < 0 || y < 0 || x >= size || y >= size) return;
      var what = TERRAIN_NAME[map[y][x]] || map[y][x];
      (state.worms || []).forEach(function (w) { if (w.on_map && w.x === x && w.y === y) what += ', worm ' + wormLabel(w) + ' ' + w.hp + ' HP'; });
      (state.health_packs || []).forEach(function (h) { if (h.x === x && h.y === y) what += ', health pack'; });
      readout.textContent = '(' + x + ', ' + y + ') ' + what;
    });

    container.replaceChildren(status, svg, readout, roster(state, meta), legend());
  }

  window.ReplayLab.register('worms', draw);
})();

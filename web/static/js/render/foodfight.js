// foodfight.js draws a FoodFight (BitBrawl 2018) frame to scale, as the
// original's video did (rules A.14): the 1440x1080 field with y up, each
// team's 200x200 table tinted with the team's hue and its food at the
// corners, players as 50 px circles with a heading mark, arms at ±π/6
// reaching 100 px and held food at the arm ends, labelled like "A3". A
// ducking player's body shrinks with its height. Food on the ground is a
// disc of its radius; food in flight is drawn raised above a shadow whose
// offset and size show its height. The turn's collisions are bursts, and a
// player whose action was refused wears a red cross. Under the field, a
// card per player: label, bot, team points, energy, held food, action
// (struck through when refused) and damage.
//
// Playback redraws every turn, so the drawing is built once per match (the
// field, the tables and the cards) and each frame only refills the layers
// that move and the cards' values.
(function () {
  'use strict';
  var MARGIN = 60; // room for food outside the field (the bounce quirk, A.7)
  var BODY = 50, ARM = 100, ARM_ANGLE = Math.PI / 6, TABLE = 100;
  var MAX_ENERGY = 100, STANDING = 200;
  var LIFT = 0.5; // SVG units a flying food is raised per unit of height
  // Colour and short glyph per food type (A.5's table).
  var FOOD = {
    apple: ['#d62828', 'A'], banana: ['#f4d03f', 'Ba'], raspberry: ['#c2185b', 'R'], broccoli: ['#2e8b3a', 'Br'],
    milk: ['#f4f7fb', 'M'], chocolate: ['#6b3e26', 'C'], sandwich: ['#d9a866', 'S'], pie: ['#e8a33d', 'P']
  };
  var TYPE = { DUEL: 'duel', FREE_FOR_ALL: 'free for all', TEAM: 'team match' };
  var TABLE_CORNERS = [[-50, 50], [50, 50], [-50, -50], [50, -50]];

  var el = ReplayLab.svg;
  var html = ReplayLab.html;
  var star = ReplayLab.star;

  function food(type) { return FOOD[type] || ['#9e9e9e', '?']; }

  function hue(team) {
    var first = team && team.seats && team.seats.length ? team.seats[0] : 0;
    return ReplayLab.seatColor(first);
  }

  function fixed(v) { return Math.round(v * 10) / 10; }

  // height is the player's height as drawn: turn 0's height of 0 is an
  // engine quirk only bots see (A.16), so the players stand there.
  function height(p, state) { return state.turn > 0 ? p.height : STANDING; }

  // glyphColor picks a readable text colour on a food's disc.
  function glyphColor(type) { return type === 'milk' || type === 'banana' || type === 'sandwich' ? '#3a2a10' : '#fff'; }

  // disc draws a food of radius r centred at (x, y) in SVG units.
  function disc(g, type, x, y, r, attrs) {
    var f = food(type);
    var e = el('g', attrs || {}), size = Math.max(14, Math.min(26, r * 1.1));
    e.appendChild(el('circle', { cx: x, cy: y, r: r, fill: f[0], stroke: '#2b2b2b', 'stroke-width': 3 }));
    e.appendChild(el('text', { x: x, y: y + size * 0.35, 'text-anchor': 'middle', 'font-size': size, 'font-weight': 700, fill: glyphColor(type) }, f[1]));
    g.appendChild(e);
    return e;
  }

  // skeleton builds what stays through a match: the field, the tables, the
  // empty layers and a card per player.
  function skeleton(state, meta) {
    var W = state.width, D = state.depth;
    var s = {};
    s.svg = el('svg', { viewBox: [-MARGIN, -MARGIN, W + 2 * MARGIN, D + 2 * MARGIN].join(' '), role: 'img', 'class': 'board-foodfight', 'font-family': 'system-ui, sans-serif' });
    // A bot's debug drawing is in the field's points, y up.
    s.svg.replayDebug = { pt: function (x, y) { return [x, D - y]; }, unit: 1, mark: 14, stroke: 5, font: 32 };
    var field = el('g', { 'class': 'field' });
    field.appendChild(el('rect', { x: -MARGIN, y: -MARGIN, width: W + 2 * MARGIN, height: D + 2 * MARGIN, fill: '#d5d9df' }));
    field.appendChild(el('rect', { x: 0, y: 0, width: W, height: D, fill: '#f6f1e7', stroke: '#5a6475', 'stroke-width': 4 }));
    // The 3x3 zones of the setup (A.4), faintly.
    var grid = '';
    for (var i = 1; i < 3; i++) grid += 'M' + (W * i / 3) + ' 0V' + D + 'M0 ' + (D * i / 3) + 'H' + W;
    field.appendChild(el('path', { d: grid, stroke: '#e4dccb', 'stroke-width': 3, fill: 'none' }));
    s.svg.appendChild(field);
    var tables = el('g', { 'class': 'tables' });
    state.teams.forEach(function (t) {
      var x = t.table.location[0], y = D - t.table.location[1], c = hue(t);
      var e = el('g', { 'data-table': t.symbol });
      e.appendChild(el('rect', { x: x - TABLE, y: y - TABLE, width: 2 * TABLE, height: 2 * TABLE, rx: 6, fill: c, 'fill-opacity': 0.35, stroke: c, 'stroke-width': 6 }));
      e.appendChild(el('text', { x: x, y: y + 40, 'text-anchor': 'middle', 'font-size': 120, 'font-weight': 700, fill: c, 'fill-opacity': 0.45 }, t.symbol));
      e.appendChild(el('title', {}, 'team ' + t.symbol + "'s table"));
      tables.appendChild(e);
    });
    s.svg.appendChild(tables);
    // Bottom to top: table food, ground food, players, collisions (most
    // lie between overlapping players), flying food (above everyone's
    // heads), the turn number.
    ['tableFood', 'ground', 'players', 'collisions', 'air'].forEach(function (name) {
      s[name] = el('g', { 'class': name });
      s.svg.appendChild(s[name]);
    });
    s.turn = el('text', { x: 10, y: D - 14, 'font-size': 40, fill: '#5a6475' });
    s.svg.appendChild(s.turn);

    s.status = html('p', 'board-status');
    s.cards = html('div', 'ff-cards');
    s.card = state.players.map(function (p) { return card(s.cards, p, state, meta); });
    s.root = html('div', 'ff-board');
    s.root.append(s.status, s.svg, s.cards, legend());
    return s;
  }

  // key names what the skeleton depends on: another match, or a frame of
  // another shape, needs a new one.
  function key(state, meta) {
    return [meta && meta.id, state.width, state.depth, state.players.length].concat(state.teams.map(function (t) {
      return t.symbol + t.table.location.join(',');
    })).join('|');
  }

  function card(box, p, state, meta) {
    var team = state.teams[p.team] || {};
    var c = { root: html('div', 'ff-card') };
    c.root.setAttribute('data-card', p.label);
    c.root.style.borderLeftColor = hue(team);
    var head = html('div', 'ff-head');
    head.append(html('strong', 'id', p.label), html('span', 'ff-bot', ReplayLab.seatLabel(meta, p.seat)));
    c.points = html('span', 'ff-points');
    head.appendChild(c.points);
    var bar = html('div', 'ff-energy');
    c.energy = html('div', 'ff-energy-fill');
    c.energyText = html('span', 'ff-energy-text');
    bar.append(c.energy, c.energyText);
    c.hands = html('div', 'ff-hands');
    c.action = html('div', 'ff-action');
    c.root.append(head, bar, c.hands, c.action);
    box.appendChild(c.root);
    return c;
  }

  function fillCard(c, p, state) {
    var team = state.teams[p.team] || {};
    c.points.textContent = 'team ' + team.symbol + ': ' + team.points + ' pts';
    var e = Math.max(0, Math.min(MAX_ENERGY, p.energy));
    c.energy.style.width = (100 * e / MAX_ENERGY) + '%';
    c.energy.className = 'ff-energy-fill' + (e < 30 ? ' low' : '');
    c.energyText.textContent = 'energy ' + fixed(p.energy) + (p.damage > 0 ? ' (−' + fixed(p.damage) + ')' : '');
    c.hands.replaceChildren();
    [['L', p.left], ['R', p.right]].forEach(function (h) {
      var span = html('span', 'ff-hand', h[0] + ' ');
      if (h[1]) {
        var dot = html('span', 'swatch');
        dot.style.background = food(h[1])[0];
        span.append(dot, document.createTextNode(h[1]));
      } else {
        span.appendChild(html('span', 'muted', 'empty'));
      }
      c.hands.appendChild(span);
    });
    c.action.textContent = p.action === 'null' ? 'no action' : p.action;
    c.action.className = 'ff-action' + (p.valid ? '' : ' invalid');
    c.action.title = p.valid ? '' : 'refused and played as no action';
    c.root.classList.toggle('ducking', height(p, state) < STANDING);
  }

  // player draws a player: footprint, body by height, arms, heading, held
  // food at the arm ends and the label.
  function player(g, p, state) {
    var D = state.depth, x = p.location[0], y = D - p.location[1], h = p.heading;
    var c = ReplayLab.seatColor(p.seat);
    var ducking = height(p, state) < STANDING;
    var e = el('g', { 'data-player': p.label, 'class': 'player' + (ducking ? ' ducking' : '') + (p.valid ? '' : ' invalid') });
    [[p.left, h + ARM_ANGLE], [p.right, h - ARM_ANGLE]].forEach(function (arm) {
      var ax = x + ARM * Math.cos(arm[1]), ay = y - ARM * Math.sin(arm[1]);
      e.appendChild(el('line', { x1: x, y1: y, x2: ax, y2: ay, stroke: '#4a4a4a', 'stroke-width': 8, 'stroke-linecap': 'round' }));
      if (arm[0]) disc(e, arm[0], ax, ay, 16, { 'data-held': arm[0] });
    });
    e.appendChild(el('circle', { cx: x, cy: y, r: BODY, fill: c, 'fill-opacity': 0.3, stroke: c, 'stroke-width': 4, 'stroke-dasharray': ducking ? '10 8' : 'none' }));
    // The body's radius follows the height: 200 fills the footprint, a
    // full duck (100) two thirds of it.
    var r = BODY * (0.35 + 0.65 * Math.max(0, Math.min(1, height(p, state) / STANDING)));
    e.appendChild(el('circle', { cx: x, cy: y, r: r, fill: c, 'fill-opacity': ducking ? 0.7 : 1, stroke: '#1f2a3c', 'stroke-width': 3 }));
    // The heading: a nose just outside the footprint.
    var cos = Math.cos(h), sin = Math.sin(h);
    e.appendChild(el('path', { d: 'M' + (x + 72 * cos) + ' ' + (y - 72 * sin) + 'L' + (x + 46 * cos - 16 * sin) + ' ' + (y - 46 * sin - 16 * cos) +
      'L' + (x + 46 * cos + 16 * sin) + ' ' + (y - 46 * sin + 16 * cos) + 'Z', fill: '#1f2a3c', 'class': 'heading' }));
    e.appendChild(el('text', { x: x, y: y + 13, 'text-anchor': 'middle', 'font-size': 36, 'font-weight': 700, fill: '#111', stroke: '#fff', 'stroke-width': 5, 'paint-order': 'stroke' }, p.label));
    if (!p.valid) {
      // A red cross over the player's shoulder: its action was refused.
      var bx = x + 40, by = y - 40;
      e.appendChild(el('circle', { cx: bx, cy: by, r: 16, fill: '#c53030', stroke: '#fff', 'stroke-width': 3, 'class': 'invalid-mark' }));
      e.appendChild(el('path', { d: 'M' + (bx - 7) + ' ' + (by - 7) + 'l14 14m0 -14l-14 14', stroke: '#fff', 'stroke-width': 4 }));
    }
    var tip = p.label + ': energy ' + fixed(p.energy) + ', height ' + fixed(p.height) + ', ' + (p.action === 'null' ? 'no action' : p.action) + (p.valid ? '' : ' (refused)');
    if (p.damage > 0) tip += ', damage ' + fixed(p.damage);
    e.appendChild(el('title', {}, tip));
    g.appendChild(e);
  }

  // flying draws a food in the air: its shadow on the ground, shrinking
  // and fading with height, and the disc raised by its height.
  function flying(g, f, D) {
    var x = f.location[0], y = D - f.location[1], lift = f.height * LIFT;
    var e = el('g', { 'data-food': f.type, 'data-air': 'true' });
    var shrink = Math.max(0.4, 1 - f.height / 400);
    e.appendChild(el('ellipse', { cx: x, cy: y, rx: f.radius * shrink, ry: f.radius * shrink * 0.6, fill: '#000', 'fill-opacity': 0.35 * shrink, 'class': 'shadow' }));
    e.appendChild(el('line', { x1: x, y1: y, x2: x, y2: y - lift, stroke: '#000', 'stroke-opacity': 0.25, 'stroke-width': 2, 'stroke-dasharray': '6 6' }));
    var tx = x + 1.6 * f.radius * Math.cos(f.heading), ty = y - lift - 1.6 * f.radius * Math.sin(f.heading);
    e.appendChild(el('line', { x1: x, y1: y - lift, x2: tx, y2: ty, stroke: '#1f2a3c', 'stroke-width': 4, 'stroke-linecap': 'round' }));
    disc(e, f.type, x, y - lift, f.radius);
    e.appendChild(el('title', {}, f.type + ' flying at height ' + fixed(f.height)));
    g.appendChild(e);
  }

  function collision(g, c, state) {
    var x = c.location[0], y = state.depth - c.location[1];
    var who = (c.players || []).map(function (s) { return state.players[s] ? state.players[s].label : '?'; }).join(' and ');
    var e = el('g', { 'data-collision': c.kind });
    var hit = c.kind === 'food';
    e.appendChild(el('path', { d: star(x, y, hit ? 60 : 40, hit ? 28 : 20), fill: hit ? '#ffe14d' : '#ffb74d', 'fill-opacity': 0.75, stroke: hit ? '#c53030' : '#e65100', 'stroke-width': 4 }));
    if (hit) e.appendChild(el('circle', { cx: x, cy: y, r: 12, fill: food(c.food)[0], stroke: '#c53030', 'stroke-width': 3 }));
    e.appendChild(el('title', {}, (hit ? c.food + ' hit ' + who : who + ' collided') + ', damage ' + fixed(c.damage)));
    g.appendChild(e);
  }

  function legend() {
    var ul = html('ul', 'legend');
    Object.keys(FOOD).forEach(function (type) {
      var s = el('svg', { viewBox: '-25 -25 50 50', width: 16, height: 16, 'aria-hidden': 'true' });
      disc(s, type, 0, 0, 22);
      var li = html('li');
      li.append(s, html('span', '', type));
      ul.appendChild(li);
    });
    return ul;
  }

  function draw(container, state, turn, meta) {
    var s = ReplayLab.drawing(container, key(state, meta), function () { return skeleton(state, meta); });
    var D = state.depth;
    s.svg.setAttribute('aria-label', 'FoodFight field, turn ' + state.turn);

    var tableFood = [];
    state.teams.forEach(function (t) {
      var x = t.table.location[0], y = D - t.table.location[1];
      (t.table.food || []).forEach(function (type, i) {
        var k = TABLE_CORNERS[i % 4]; // at most 4 food are in play (A.2)
        var e = el('g', { 'data-table-food': t.symbol + ':' + type });
        disc(e, type, x + k[0], y - k[1], 22);
        e.appendChild(el('title', {}, type + ' on team ' + t.symbol + "'s table"));
        tableFood.push(e);
      });
    });
    s.tableFood.replaceChildren.apply(s.tableFood, tableFood);

    s.ground.replaceChildren();
    s.air.replaceChildren();
    var inAir = 0;
    state.food.forEach(function (f) {
      if (f.air) {
        inAir++;
        flying(s.air, f, D);
      } else {
        var e = disc(s.ground, f.type, f.location[0], D - f.location[1], f.radius, { 'data-food': f.type });
        e.appendChild(el('title', {}, f.type + ' on the ground'));
      }
    });
    s.collisions.replaceChildren();
    state.collisions.forEach(function (c) { collision(s.collisions, c, state); });
    s.players.replaceChildren();
    state.players.forEach(function (p, i) {
      player(s.players, p, state);
      fillCard(s.card[i], p, state);
    });
    s.turn.textContent = 'turn ' + state.turn;

    var bits = ['Turn ' + state.turn, TYPE[state.type] || state.type, state.teams.map(function (t) { return t.symbol + ' ' + t.points; }).join(' · ')];
    bits.push(inAir ? inAir + ' food in flight' : 'no food in flight');
    if (state.collisions.length) bits.push(state.collisions.length + ' collision' + (state.collisions.length > 1 ? 's' : ''));
    s.status.textContent = bits.join(' · ');
  }

  window.ReplayLab.register('foodfight', draw);
})();

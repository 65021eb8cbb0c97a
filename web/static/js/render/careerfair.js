// careerfair.js draws a Career Fair (AWAP 2019) frame, sim/careerfair's
// Frame: the floor's tiles shaded by their crowd threshold (1 light, 5
// dark), booths as blocks with their company's name and value, each line
// as a lane from its front (at the booth) to its tail with the end-of-line
// tile outlined, queued bots along the lane in queue order (3 per tile,
// the tail's overflow as a count), the booth's registered talker ringed,
// free crowd bots as grey dots in a 3x3 sub-grid per tile (with a count
// when more stand there), and the teams' bots in their seat's colour, the
// main bot ringed in gold, with a tick toward the move under way. A
// toggle darkens what one team cannot see. Under the board: a card per
// team (score, services, bots in line, visible tiles) and the rewards a
// service would still earn per company and team.
//
// Playback redraws every step, so the drawing is built once per match
// (tiles, booths, lanes, team bots, cards and the rewards table) and a
// frame only recolours the tiles whose threshold changed, rewrites the
// two crowd paths (every dot of a kind is one path), moves the team bots
// and markers and refills the numbers.
(function () {
  'use strict';
  var C = 30; // SVG units per tile
  var DOT = 2.6, QUEUED = 3.4, BOT = 5.2; // radii
  // Tile fill per threshold (B.3's 1, 2, 3 and 5 steps to enter).
  var SHADE = { 1: '#fbf7ef', 2: '#f2d9ab', 3: '#e3a962', 5: '#c4672f' };
  var THRESHOLDS = [1, 2, 3, 5];
  var BOOTH = { S: '#d3dcea', M: '#b4c3da', L: '#93a9cb' };
  var SIZE = { S: 'small', M: 'medium', L: 'large' };
  var DIRS = ['none', 'left', 'up', 'right', 'down'];
  var ANGLE = [0, 180, 270, 0, 90]; // per direction, clockwise from right
  var STEP = [[0, 0], [0, -1], [-1, 0], [0, 1], [1, 0]]; // (row, col) per direction
  // Offsets of the team bots sharing a tile, by their number.
  var SPREAD = [[], [[0, 0]], [[-7, 0], [7, 0]], [[-7, -6], [7, -6], [0, 7]], [[-7, -7], [7, -7], [-7, 7], [7, 7]]];
  var visionTeam = -1; // the vision toggle, kept from step to step

  var el = ReplayLab.svg;
  var html = ReplayLab.html;

  var teamColor = ReplayLab.seatColor; // team ti plays seat ti

  // attr and text change an element only when the value differs: most of
  // a frame is as the previous one left it, and every change costs the
  // browser a style and layout pass.
  function attr(e, name, v) {
    v = String(v);
    if (e.getAttribute(name) !== v) e.setAttribute(name, v);
  }

  function text(e, v) {
    if (e.textContent !== v) e.textContent = v;
  }

  function shade(th) { return SHADE[th] || SHADE[5]; }

  // circle appends a circle of radius r at (x, y) to a path's data.
  function circle(x, y, r) {
    return 'M' + (x - r).toFixed(1) + ' ' + y.toFixed(1) + 'a' + r + ' ' + r + ' 0 1 0 ' + 2 * r + ' 0a' + r + ' ' + r + ' 0 1 0 ' + -2 * r + ' 0';
  }

  // columns maps the frame's bot column names to their indexes.
  function columns(state) {
    var col = {};
    state.bot_columns.forEach(function (name, i) { col[name] = i; });
    return col;
  }

  // outline is the path of the edges between the tiles (r, c) for which
  // inside is true and the others or the grid's edge.
  function outline(rows, cols, inside) {
    var d = '';
    for (var r = 0; r < rows; r++) {
      for (var c = 0; c < cols; c++) {
        if (!inside(r, c)) continue;
        var x = c * C, y = r * C;
        if (r === 0 || !inside(r - 1, c)) d += 'M' + x + ' ' + y + 'h' + C;
        if (r === rows - 1 || !inside(r + 1, c)) d += 'M' + x + ' ' + (y + C) + 'h' + C;
        if (c === 0 || !inside(r, c - 1)) d += 'M' + x + ' ' + y + 'v' + C;
        if (c === cols - 1 || !inside(r, c + 1)) d += 'M' + (x + C) + ' ' + y + 'v' + C;
      }
    }
    return d;
  }

  // lane works out a line's axis (front to tail) and, per tile, the three
  // queue places along it and six places beside it.
  function lane(b, boothOf, cols) {
    var ax = [0, 1]; // (row, col) step from the front toward the tail
    if (b.line.length > 1) {
      ax = [Math.sign(b.line[1][0] - b.line[0][0]), Math.sign(b.line[1][1] - b.line[0][1])];
    } else {
      // A one-tile line points away from its booth.
      var f = b.line[0];
      STEP.slice(1).forEach(function (d) {
        var r = f[0] + d[0], c = f[1] + d[1];
        if (c >= 0 && c < cols && boothOf[r * cols + c] === b.company) ax = [-d[0], -d[1]];
      });
    }
    var perp = [ax[1], -ax[0]];
    return b.line.map(function (t) {
      var cx = (t[1] + 0.5) * C, cy = (t[0] + 0.5) * C, third = C / 3;
      var at = function (along, side) { return [cx + (ax[1] * along + perp[1] * side) * third, cy + (ax[0] * along + perp[0] * side) * third]; };
      return { queue: [at(-1, 0), at(0, 0), at(1, 0)], beside: [at(-1, -1), at(0, -1), at(1, -1), at(-1, 1), at(0, 1), at(1, 1)] };
    });
  }

  // key names what the skeleton depends on: another match, or a frame of
  // another board, needs a new one.
  function key(state, meta) {
    return [meta && meta.id, state.rows, state.cols, state.teams.length].concat(state.booths.map(function (b) {
      return b.company + b.tiles.join(';') + '/' + b.line.join(';');
    })).join('|');
  }

  // skeleton builds what stays through a match.
  function skeleton(state, meta) {
    var rows = state.rows, cols = state.cols, n = rows * cols;
    var s = { col: columns(state), rows: rows, cols: cols };
    s.svg = el('svg', { viewBox: [-2, -2, cols * C + 4, rows * C + 4].join(' '), role: 'img', 'class': 'board-careerfair', 'font-family': 'system-ui, sans-serif' });
    ReplayLab.debugCells(s.svg, C, true); // a bot's [x, y] is board[x][y]: row x, column y

    // What each tile is, and where free bots stand on it: nine places, or
    // the six beside the lane on a line tile.
    s.boothOf = new Array(n).fill(null);
    s.lineOf = new Array(n).fill(null);
    state.booths.forEach(function (b) {
      b.tiles.forEach(function (t) { s.boothOf[t[0] * cols + t[1]] = b.company; });
      b.line.forEach(function (t) { s.lineOf[t[0] * cols + t[1]] = b.company; });
    });
    s.lanes = state.booths.map(function (b) { return lane(b, s.boothOf, cols); });
    s.places = [];
    for (var t = 0; t < n; t++) {
      var cx = (t % cols + 0.5) * C, cy = (Math.floor(t / cols) + 0.5) * C, spots = [];
      for (var i = 0; i < 9; i++) spots.push([cx + (i % 3 - 1) * C / 3, cy + (Math.floor(i / 3) - 1) * C / 3]);
      s.places.push(spots);
    }
    state.booths.forEach(function (b, k) {
      b.line.forEach(function (t, j) { s.places[t[0] * cols + t[1]] = s.lanes[k][j].beside; });
    });

    var floor = el('g', { 'class': 'floor' });
    s.tiles = [];
    s.shades = [];
    for (t = 0; t < n; t++) {
      var r = el('rect', { x: (t % cols) * C, y: Math.floor(t / cols) * C, width: C, height: C, fill: shade(1), 'data-threshold': 1 });
      s.tiles.push(r);
      s.shades.push(1);
      floor.appendChild(r);
    }
    var grid = '';
    for (r = 1; r < rows; r++) grid += 'M0 ' + r * C + 'h' + cols * C;
    for (var c = 1; c < cols; c++) grid += 'M' + c * C + ' 0v' + rows * C;
    floor.appendChild(el('path', { d: grid, stroke: '#00000014', 'stroke-width': 0.6, fill: 'none' }));
    var st = state.start;
    floor.appendChild(el('rect', { x: st[1] * C + 2, y: st[0] * C + 2, width: C - 4, height: C - 4, rx: 3, fill: 'none', stroke: '#6b4f2a', 'stroke-width': 1.2, 'stroke-dasharray': '3 2', 'data-start': '' }));
    s.svg.appendChild(floor);

    var lanes = el('g', { 'class': 'lanes' });
    var overflow = el('g', { 'class': 'overflow' });
    var booths = el('g', { 'class': 'booths' });
    s.ends = [];
    s.talkers = [];
    s.more = [];
    state.booths.forEach(function (b, k) {
      var tiles = {};
      b.line.forEach(function (t) { tiles[t[0] * cols + t[1]] = true; });
      var inLane = function (r, c) { return tiles[r * cols + c] === true; };
      var band = '';
      b.line.forEach(function (t) { band += 'M' + (t[1] * C + 3) + ' ' + (t[0] * C + 3) + 'h' + (C - 6) + 'v' + (C - 6) + 'h' + (6 - C) + 'z'; });
      var g = el('g', { 'data-line': b.company });
      g.appendChild(el('path', { d: band, fill: '#ffffff', 'fill-opacity': 0.35 }));
      g.appendChild(el('path', { d: outline(rows, cols, inLane), stroke: '#59647a', 'stroke-width': 1, 'stroke-dasharray': '4 2', fill: 'none' }));
      // The lane's axis, front to tail.
      var q = s.lanes[k];
      var a = q[0].queue[0], z = q[q.length - 1].queue[2];
      g.appendChild(el('path', { d: 'M' + a[0] + ' ' + a[1] + 'L' + z[0] + ' ' + z[1], stroke: '#59647a', 'stroke-opacity': 0.35, 'stroke-width': 1.5 }));
      s.ends.push(g.appendChild(el('rect', { width: C - 2, height: C - 2, rx: 2, fill: 'none', stroke: '#2d3748', 'stroke-width': 1.8, 'data-end': b.company })));
      // The tail's overflow count, in the tail tile's lower right corner
      // (a free crowd count takes the upper left).
      var tail = b.line[b.line.length - 1];
      s.more.push(overflow.appendChild(el('text', { x: (tail[1] + 1) * C - 1.5, y: (tail[0] + 1) * C - 2, 'font-size': 8, 'font-weight': 700, 'text-anchor': 'end',
        fill: '#1f2a3c', stroke: '#fff', 'stroke-width': 2.5, 'paint-order': 'stroke', 'data-more': '' })));
      g.appendChild(el('title', {}, 'line of ' + b.company));
      lanes.appendChild(g);

      var mine = {};
      b.tiles.forEach(function (t) { mine[t[0] * cols + t[1]] = true; });
      var inBooth = function (r, c) { return mine[r * cols + c] === true; };
      var e = el('g', { 'data-booth': b.company });
      var fill = '', r0 = rows, r1 = 0, c0 = cols, c1 = 0;
      b.tiles.forEach(function (t) {
        fill += 'M' + t[1] * C + ' ' + t[0] * C + 'h' + C + 'v' + C + 'h' + -C + 'z';
        r0 = Math.min(r0, t[0]); r1 = Math.max(r1, t[0] + 1); c0 = Math.min(c0, t[1]); c1 = Math.max(c1, t[1] + 1);
      });
      e.appendChild(el('path', { d: fill, fill: BOOTH[b.size] || BOOTH.S }));
      e.appendChild(el('path', { d: outline(rows, cols, inBooth), stroke: '#2d3748', 'stroke-width': 1.6, fill: 'none' }));
      label(e, b, c0 * C, r0 * C, (c1 - c0) * C, (r1 - r0) * C);
      e.appendChild(el('title', {}, b.company + ' (' + (SIZE[b.size] || b.size) + ', value ' + b.value + ')'));
      booths.appendChild(e);
      s.talkers.push(el('circle', { cx: q[0].queue[0][0], cy: q[0].queue[0][1], r: BOT + 1.3, fill: 'none', stroke: '#c53030', 'stroke-width': 1.4, 'data-talker': b.company }));
    });
    s.svg.append(lanes, booths);

    // Bottom to top: the crowd (free, then queued), the count labels
    // (overflow, then free crowd), the teams' bots, talker rings (a talker
    // may be a team bot), the vision overlay.
    s.free = el('path', { fill: '#646b75', 'class': 'crowd-free' });
    s.queued = el('path', { fill: '#3b4049', stroke: '#fff', 'stroke-width': 0.6, 'class': 'crowd-queued' });
    var talkers = el('g', { 'class': 'talkers' });
    talkers.append.apply(talkers, s.talkers);
    s.counts = el('g', { 'class': 'counts', 'font-size': 8, 'font-weight': 700, fill: '#1f2a3c' });
    s.countLabels = [];
    s.bots = el('g', { 'class': 'team-bots' });
    s.team = [];
    state.teams.forEach(function (_, ti) {
      for (var id = 0; id < 4; id++) s.team.push(teamBot(s.bots, ti, id));
    });
    s.vision = el('g', { 'class': 'vision' });
    s.hidden = el('path', { fill: '#1b2233', 'fill-opacity': 0.35 });
    s.edge = el('path', { fill: 'none', 'stroke-width': 2 });
    s.vision.append(s.hidden, s.edge);
    s.svg.append(s.free, s.queued, overflow, s.counts, s.bots, talkers, s.vision);

    s.status = html('p', 'board-status');
    s.readout = html('p', 'board-readout', 'Point at a tile for its crowd and threshold.');
    s.svg.addEventListener('mousemove', function (e) { point(s, e); });
    s.cards = html('div', 'cf-cards');
    s.card = state.teams.map(function (_, ti) { return card(s.cards, ti, meta); });
    s.root = html('div', 'cf-board');
    s.root.append(s.status, visionToggle(s, state, meta), s.svg, s.readout, s.cards, rewards(s, state, meta), legend());
    return s;
  }

  // label writes a booth's company and value inside its block, turned
  // upright for a tall, narrow booth and shrunk to fit.
  function label(g, b, x, y, w, h) {
    var tall = h > w * 1.4;
    var long = tall ? h : w, short = tall ? w : h;
    var size = Math.max(4, Math.min(10, 0.92 * long / (0.58 * b.company.length), short * 0.36));
    var cx = x + w / 2, cy = y + h / 2;
    var t = el('g', { transform: tall ? 'rotate(-90 ' + cx + ' ' + cy + ')' : '' });
    t.appendChild(el('text', { x: cx, y: cy - 0.5, 'text-anchor': 'middle', 'font-size': size.toFixed(1), 'font-weight': 700, fill: '#1a202c', 'class': 'company' }, b.company));
    t.appendChild(el('text', { x: cx, y: cy + Math.min(9, short * 0.34), 'text-anchor': 'middle', 'font-size': Math.min(7.5, short * 0.28).toFixed(1), fill: '#2d3748' }, b.size + ' · ' + b.value));
    g.appendChild(t);
  }

  // teamBot builds a team bot's marker, moved by every frame.
  function teamBot(g, ti, id) {
    var e = el('g', { 'data-team-bot': ti + ':' + id, 'class': 'team-bot' + (id === 0 ? ' main' : '') });
    var tick = el('path', { d: 'M' + (BOT + 1) + ' -3L' + (BOT + 5) + ' 0L' + (BOT + 1) + ' 3Z', fill: '#1f2a3c', 'class': 'heading' });
    if (id === 0) e.appendChild(el('circle', { r: BOT + 1.8, fill: '#f6c343', stroke: '#8a6d00', 'stroke-width': 0.8 }));
    e.appendChild(el('circle', { r: BOT, fill: teamColor(ti), stroke: '#1f2a3c', 'stroke-width': 1 }));
    e.appendChild(el('text', { y: 2.6, 'text-anchor': 'middle', 'font-size': 7, 'font-weight': 700, fill: '#fff' }, String(id)));
    e.appendChild(tick);
    var title = el('title');
    e.appendChild(title);
    g.appendChild(e);
    return { root: e, tick: tick, title: title };
  }

  // visionToggle builds the buttons that choose whose vision to show:
  // buttons, not radios, so the arrow keys keep stepping the inspector.
  function visionToggle(s, state, meta) {
    var box = html('div', 'cf-vision');
    box.setAttribute('role', 'group');
    box.setAttribute('aria-label', 'Vision area');
    box.appendChild(html('span', 'cf-vision-label', 'Vision'));
    s.visionButtons = [-1].concat(state.teams.map(function (_, ti) { return ti; })).map(function (ti) {
      var button = html('button');
      button.type = 'button';
      button.setAttribute('data-vision', ti);
      if (ti >= 0) {
        var dot = html('span', 'swatch');
        dot.style.background = teamColor(ti);
        button.appendChild(dot);
      }
      button.appendChild(document.createTextNode(ti < 0 ? 'none' : ReplayLab.seatLabel(meta, ti)));
      button.addEventListener('click', function () {
        visionTeam = ti;
        vision(s, s.state);
      });
      box.appendChild(button);
      return button;
    });
    return box;
  }

  function card(box, ti, meta) {
    var c = { root: html('div', 'cf-card') };
    c.root.setAttribute('data-team', ti);
    c.root.style.borderLeftColor = teamColor(ti);
    var head = html('div', 'cf-head');
    var p = meta && meta.players && meta.players[ti];
    head.append(html('strong', '', 'Seat ' + (ti + 1)), html('span', 'cf-bot', p ? p.name : ''));
    c.score = html('span', 'cf-score');
    head.appendChild(c.score);
    c.facts = html('div', 'cf-facts');
    c.root.append(head, c.facts);
    box.appendChild(c.root);
    return c;
  }

  // rewards builds the table of what a service still earns: per company a
  // row, per team its main bot's and a helper's points.
  function rewards(s, state, meta) {
    var wrap = html('details', 'cf-rewards');
    wrap.open = true;
    wrap.appendChild(html('summary', '', 'Rewards left per company (main / helper)'));
    var scroll = html('div', 'scroll');
    var table = html('table', 'cf-rewards');
    var hr = html('tr');
    hr.append(html('th', '', 'Company'), html('th', '', 'Size'), html('th', 'num', 'Value'), html('th', 'num', 'In line'));
    state.teams.forEach(function (_, ti) {
      var th = html('th', 'num', 'Seat ' + (ti + 1));
      th.title = ReplayLab.seatLabel(meta, ti);
      th.style.color = teamColor(ti);
      hr.appendChild(th);
    });
    var head = html('thead');
    head.appendChild(hr);
    var body = html('tbody');
    s.rewardCells = state.booths.map(function (b) {
      var tr = html('tr');
      tr.setAttribute('data-company', b.company);
      tr.append(html('td', '', b.company), html('td', '', SIZE[b.size] || b.size), html('td', 'num', String(b.value)));
      var cells = { line: html('td', 'num'), team: state.teams.map(function () { return html('td', 'num'); }) };
      tr.appendChild(cells.line);
      tr.append.apply(tr, cells.team);
      body.appendChild(tr);
      return cells;
    });
    table.append(head, body);
    scroll.appendChild(ReplayLab.phoneCards(table));
    wrap.appendChild(scroll);
    return wrap;
  }

  function legend() {
    var ul = html('ul', 'legend');
    var item = function (draw, text) {
      var svg = el('svg', { viewBox: '-8 -8 16 16', width: 16, height: 16, 'aria-hidden': 'true' });
      draw(svg);
      var li = html('li');
      li.append(svg, html('span', '', text));
      ul.appendChild(li);
    };
    THRESHOLDS.forEach(function (th) {
      item(function (g) { g.appendChild(el('rect', { x: -8, y: -8, width: 16, height: 16, fill: shade(th), stroke: '#0002' })); },
        'threshold ' + th);
    });
    item(function (g) { g.appendChild(el('circle', { r: DOT, fill: '#646b75' })); }, 'crowd bot');
    item(function (g) { g.appendChild(el('circle', { r: QUEUED, fill: '#3b4049' })); }, 'crowd bot in line');
    item(function (g) {
      g.appendChild(el('circle', { r: 7, fill: '#f6c343', stroke: '#8a6d00' }));
      g.appendChild(el('circle', { r: 5, fill: teamColor(0) }));
    }, 'main bot');
    item(function (g) { g.appendChild(el('circle', { r: 5, fill: 'none', stroke: '#c53030', 'stroke-width': 1.5 })); }, 'talking to the recruiter');
    item(function (g) { g.appendChild(el('rect', { x: -7, y: -7, width: 14, height: 14, fill: 'none', stroke: '#2d3748', 'stroke-width': 2 })); }, 'end of line');
    return ul;
  }

  // place lays the frame's bots out: free crowd dots and counts per tile,
  // queues along their lanes, team bots where they stand or queue.
  function place(s, state) {
    var col = s.col, n = s.rows * s.cols;
    var crowd = new Array(n).fill(0), team = [];
    for (var t = 0; t < n; t++) team.push([]);
    state.bots.forEach(function (b, row) {
      if (b[col.line] >= 0) return; // drawn with its queue
      var at = b[col.row] * s.cols + b[col.col];
      if (at < 0 || at >= n) return;
      if (b[col.team] < 0) crowd[at]++;
      else team[at].push(row);
    });
    var free = '', labels = 0, freeCount = 0;
    crowd.forEach(function (k, t) {
      var places = s.places[t];
      freeCount += k;
      for (var i = 0; i < Math.min(k, places.length); i++) free += circle(places[i][0], places[i][1], DOT);
      if (k > places.length) {
        if (labels === s.countLabels.length) {
          s.countLabels.push(s.counts.appendChild(el('text', { stroke: '#fff', 'stroke-width': 2.5, 'paint-order': 'stroke' })));
        }
        var e = s.countLabels[labels++];
        attr(e, 'x', (t % s.cols) * C + 1.5);
        attr(e, 'y', Math.floor(t / s.cols) * C + 8);
        attr(e, 'data-count', k);
        text(e, String(k));
      }
    });
    // Labels past this frame's last are emptied, kept for the next.
    s.countLabels.forEach(function (e, i) {
      if (i < labels) return;
      e.removeAttribute('data-count');
      text(e, '');
    });

    var at = {}; // team bot row -> [x, y]
    team.forEach(function (rows) {
      var spread = SPREAD[Math.min(rows.length, 4)];
      rows.forEach(function (row, i) {
        var b = state.bots[row], o = spread[i % spread.length];
        var extra = Math.floor(i / 4) * 2.5; // a fifth bot and on sit a little off
        at[row] = [(b[col.col] + 0.5) * C + o[0] + extra, (b[col.row] + 0.5) * C + o[1] + extra];
      });
    });
    var queued = '', queuedCount = 0;
    state.booths.forEach(function (b, k) {
      var lane = s.lanes[k], last = lane.length - 1, beside = 0, more = 0;
      b.queue.forEach(function (row, pos) {
        var j = Math.min(Math.floor(pos / 3), last), slot = pos - 3 * j;
        var bot = state.bots[row];
        var p = slot < 3 ? lane[j].queue[slot] : null;
        if (bot[col.team] >= 0) {
          at[row] = p || lane[last].beside[beside++ % 6];
          return;
        }
        queuedCount++;
        if (p) queued += circle(p[0], p[1], QUEUED);
        else more++;
      });
      text(s.more[k], more ? '+' + more : '');
      attr(s.ends[k], 'x', b.end[1] * C + 1);
      attr(s.ends[k], 'y', b.end[0] * C + 1);
      attr(s.talkers[k], 'visibility', b.talker >= 0 && b.queue[0] === b.talker ? 'visible' : 'hidden');
    });
    attr(s.free, 'd', free || 'M0 0');
    attr(s.free, 'data-bots', freeCount);
    attr(s.queued, 'd', queued || 'M0 0');
    attr(s.queued, 'data-bots', queuedCount);
    s.crowdHere = crowd;

    s.team.forEach(function (m, i) {
      var b = state.bots[i], p = at[i];
      if (!b || !p) {
        attr(m.root, 'visibility', 'hidden');
        return;
      }
      var dir = b[col.direction];
      attr(m.root, 'visibility', 'visible');
      attr(m.root, 'transform', 'translate(' + p[0].toFixed(1) + ' ' + p[1].toFixed(1) + ')');
      attr(m.root, 'data-in-line', b[col.line] >= 0 ? 1 : 0);
      attr(m.tick, 'visibility', dir > 0 ? 'visible' : 'hidden');
      attr(m.tick, 'transform', 'rotate(' + (ANGLE[dir] || 0) + ')');
      text(m.title, botText(s, state, b));
    });
  }

  function botText(s, state, b) {
    var col = s.col, ti = b[col.team], id = b[col.id];
    var what = 'team ' + ti + ' bot ' + id + (id === 0 ? ' (main)' : '') + ' at (' + b[col.row] + ', ' + b[col.col] + ')';
    if (b[col.line] >= 0) what += ', in line for ' + state.booths[b[col.line]].company + ' at place ' + b[col.line_pos];
    if (b[col.direction] > 0) what += ', moving ' + DIRS[b[col.direction]] + ' (progress ' + b[col.progress] + ')';
    return what;
  }

  // vision darkens the tiles the chosen team does not see and outlines
  // those it does.
  function vision(s, state) {
    var team = state.teams[visionTeam];
    s.visionButtons.forEach(function (button) {
      attr(button, 'aria-pressed', Number(button.getAttribute('data-vision')) === (team ? visionTeam : -1));
    });
    if (!team) {
      attr(s.vision, 'visibility', 'hidden');
      s.vision.removeAttribute('data-vision');
      return;
    }
    var seen = team.visible, cols = s.cols, hidden = '', count = 0;
    for (var t = 0; t < seen.length; t++) {
      if (seen[t] === '1') continue;
      count++;
      hidden += 'M' + (t % cols) * C + ' ' + Math.floor(t / cols) * C + 'h' + C + 'v' + C + 'h' + -C + 'z';
    }
    attr(s.hidden, 'd', hidden || 'M0 0');
    attr(s.hidden, 'data-tiles', count);
    attr(s.edge, 'd', outline(s.rows, cols, function (r, c) { return seen[r * cols + c] === '1'; }) || 'M0 0');
    attr(s.edge, 'stroke', teamColor(visionTeam));
    attr(s.vision, 'data-vision', visionTeam);
    attr(s.vision, 'visibility', 'visible');
  }

  // point names the tile under the pointer in the readout.
  function point(s, e) {
    var state = s.state, m = s.svg.getScreenCTM();
    if (!state || !m) return;
    var p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
    var r = Math.floor(p.y / C), c = Math.floor(p.x / C);
    if (r < 0 || c < 0 || r >= s.rows || c >= s.cols) return;
    var t = r * s.cols + c;
    var what = s.boothOf[t] !== null ? 'booth of ' + s.boothOf[t] : s.lineOf[t] !== null ? 'line of ' + s.lineOf[t] : 'floor';
    state.booths.forEach(function (b) { if (b.end[0] === r && b.end[1] === c) what += ' (end of line)'; });
    var bits = ['(' + r + ', ' + c + ') ' + what, state.population[t] + ' bots, threshold ' + state.threshold[t]];
    if (s.crowdHere[t]) bits.push(s.crowdHere[t] + ' free crowd');
    state.bots.forEach(function (b) {
      if (b[s.col.team] >= 0 && b[s.col.row] === r && b[s.col.col] === c) bits.push('team ' + b[s.col.team] + ' bot ' + b[s.col.id]);
    });
    s.readout.textContent = bits.join(' · ');
  }

  // stat is a seat's (unit -1) value of a metric in the turn's stats.
  function stat(turn, meta, seat, name) {
    var i = (meta && meta.metrics || []).findIndex(function (m) { return m.name === name; });
    var row = (turn && turn.stats || []).find(function (x) { return x.seat === seat && x.unit < 0; });
    return i < 0 || !row ? null : row.values[i];
  }

  function draw(container, state, turn, meta) {
    var s = ReplayLab.drawing(container, key(state, meta), function () { return skeleton(state, meta); });
    s.state = state;
    s.svg.setAttribute('aria-label', 'Career Fair board, turn ' + state.turn);
    state.threshold.forEach(function (th, t) {
      if (s.shades[t] === th) return;
      s.shades[t] = th;
      s.tiles[t].setAttribute('fill', shade(th));
      s.tiles[t].setAttribute('data-threshold', th);
    });
    place(s, state);
    vision(s, state);

    state.teams.forEach(function (tm, ti) {
      var c = s.card[ti];
      text(c.score, tm.score + ' pts' + (tm.delta ? ' (+' + tm.delta + ')' : ''));
      var facts = [];
      var main = stat(turn, meta, ti, 'main_services'), helper = stat(turn, meta, ti, 'helper_services');
      if (main !== null && helper !== null) facts.push('services ' + (main + helper) + ' (main ' + main + ', helpers ' + helper + ')');
      var inLine = stat(turn, meta, ti, 'in_line');
      if (inLine !== null) facts.push(inLine + ' of 4 in line');
      var seen = tm.visible.split('').filter(function (v) { return v === '1'; }).length;
      facts.push(seen + ' tiles visible');
      text(c.facts, facts.join(' · '));
    });
    state.booths.forEach(function (b, k) {
      var cells = s.rewardCells[k];
      text(cells.line, String(b.queue.length));
      state.teams.forEach(function (tm, ti) {
        var r = tm.rewards[k];
        text(cells.team[ti], r[0] + ' / ' + r[1]);
        cells.team[ti].classList.toggle('spent', r[0] < b.value);
      });
    });

    var bits = ['Step ' + state.turn + (state.phase === 'idle' ? ' (idle)' : ''), state.teams.map(function (tm, ti) {
      return 'Seat ' + (ti + 1) + ' ' + tm.score + ' pts';
    }).join(' · ')];
    bits.push(s.queued.getAttribute('data-bots') + ' crowd bots in line');
    if (state.over) bits.push('over');
    text(s.status, bits.join(' · '));
  }

  window.ReplayLab.register('careerfair', draw);
})();

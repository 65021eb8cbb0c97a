// renderers.js is the registry of board renderers, one per game, that the
// inspector draws a turn's frame with. A game's script (js/render/GAME.js)
// registers itself; a game without one gets the frame as formatted JSON.
//
// A renderer is function (container, state, turn, meta): it replaces the
// container's content with a drawing of state (the game's frame); while the
// container still holds its previous drawing of the same match, it may
// update that drawing instead of building it again. It must build the
// DOM with createElement/textContent, never innerHTML, because frames hold
// text that bots control.
//
// Seats have one colour across the dashboard, sent by the server with the
// page's players (meta.players[i].color); renderers read it with
// ReplayLab.seatColor(seat), which renderer() keeps set to the match drawn.
//
// Bots' debug drawings (docs/bots.md) are drawn over a board by
// ReplayLab.drawDebug: a renderer says where its game's coordinates fall
// on its board SVG (role="img") with ReplayLab.debugCells (a board of
// cells) or by setting the SVG's replayDebug itself.
(function () {
  'use strict';
  var renderers = {};
  var palette = {}; // seat -> colour, of the match being drawn
  function generic(container, state) {
    var pre = document.createElement('pre');
    pre.textContent = JSON.stringify(state, null, 2);
    container.replaceChildren(pre);
  }
  var SVG_NS = 'http://www.w3.org/2000/svg';
  var drawings = new WeakMap(); // board container -> the drawing it shows
  // The colours a debug shape may name (replay.DebugColors), chosen to
  // read on every board; any other is #rrggbb, checked again here.
  var DEBUG_COLORS = {
    red: '#e53935', orange: '#fb8c00', yellow: '#fdd835', green: '#43a047', blue: '#1e88e5', purple: '#8e24aa',
    pink: '#ec407a', brown: '#795548', gray: '#9e9e9e', black: '#111111', white: '#ffffff'
  };
  function debugColor(c, seat) {
    if (DEBUG_COLORS[c]) return DEBUG_COLORS[c];
    return /^#[0-9a-f]{6}$/.test(c || '') ? c : ReplayLab.seatColor(seat);
  }
  // halo is black or white, whichever sets off colour c.
  function halo(c) {
    var v = parseInt(c.slice(1), 16);
    var lum = 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
    return lum > 150 ? '#000' : '#fff';
  }
  // debugShape makes the SVG of one shape in the board's coordinates m.
  // onScreen returns the debug metrics m of board with lines, crosses and
  // text no thinner or smaller on screen than a readable minimum: a board
  // drawn small (a phone, a wide field) would otherwise shrink them with
  // it. Positions and radii keep the game's scale.
  function onScreen(board, m) {
    if (!m) return m;
    var box = board.viewBox && board.viewBox.baseVal;
    var width = board.getBoundingClientRect().width;
    if (!box || !box.width || !width) return m;
    var px = box.width / width; // SVG units per screen pixel
    var o = {};
    Object.keys(m).forEach(function (k) { o[k] = m[k]; });
    o.stroke = Math.max(m.stroke, 2 * px);
    o.font = Math.max(m.font, 12 * px);
    if (m.mark) o.mark = Math.max(m.mark, 5 * px);
    return o;
  }

  function debugShape(m, s, color) {
    var el = ReplayLab.svg, p, q;
    var line = { stroke: color, 'stroke-width': m.stroke, 'stroke-linecap': 'round', fill: 'none' };
    if (s.mark) {
      p = m.pt(s.mark[0], s.mark[1]);
      if (m.cell) {
        return el('rect', { x: p[0] - m.cell / 2, y: p[1] - m.cell / 2, width: m.cell, height: m.cell, fill: color, 'fill-opacity': 0.35, stroke: color, 'stroke-width': m.stroke, 'class': 'debug-mark' });
      }
      var r = m.mark;
      line['class'] = 'debug-mark';
      line.d = 'M' + (p[0] - r) + ' ' + (p[1] - r) + 'L' + (p[0] + r) + ' ' + (p[1] + r) + 'M' + (p[0] - r) + ' ' + (p[1] + r) + 'L' + (p[0] + r) + ' ' + (p[1] - r);
      return el('path', line);
    }
    if (s.line) {
      p = m.pt(s.line[0], s.line[1]);
      q = m.pt(s.line[2], s.line[3]);
      line.x1 = p[0]; line.y1 = p[1]; line.x2 = q[0]; line.y2 = q[1];
      line['class'] = 'debug-line';
      return el('line', line);
    }
    if (s.circle) {
      p = m.pt(s.circle[0], s.circle[1]);
      line.cx = p[0]; line.cy = p[1]; line.r = s.circle[2] * m.unit;
      line['class'] = 'debug-circle';
      return el('circle', line);
    }
    if (typeof s.text === 'string' && s.at) {
      p = m.pt(s.at[0], s.at[1]);
      return el('text', {
        x: p[0], y: p[1], 'text-anchor': 'middle', 'dominant-baseline': 'central', 'font-size': m.font, 'font-weight': 700,
        fill: color, stroke: halo(color), 'stroke-width': m.font / 8, 'paint-order': 'stroke', 'class': 'debug-text'
      }, s.text);
    }
    return null;
  }
  window.ReplayLab = {
    register: function (game, fn) { renderers[game] = fn; },
    renderer: function (game) {
      var fn = renderers[game] || generic;
      return function (container, state, turn, meta) {
        palette = {};
        ((meta && meta.players) || []).forEach(function (p) { palette[p.seat] = p.color; });
        fn(container, state, turn, meta);
      };
    },
    // seatColor is the colour of a seat of the match being drawn.
    seatColor: function (seat) { return palette[seat] || '#777'; },
    // seatLabel names a seat of the match as every page does, counting
    // from 1: "Seat 1 · greedy".
    seatLabel: function (meta, seat) {
      var p = meta && meta.players && meta.players[seat];
      return 'Seat ' + (seat + 1) + (p ? ' · ' + p.name : '');
    },
    // drawing returns the drawing ({root, ...}) that build() makes for the
    // container, built and shown once and reused while the container still
    // shows it and key is the same: a renderer builds what stays through a
    // match once and updates only what moves from turn to turn.
    drawing: function (container, key, build) {
      var d = drawings.get(container);
      if (!d || d.root.parentNode !== container || d.key !== key) {
        d = build();
        d.key = key;
        drawings.set(container, d);
        container.replaceChildren(d.root);
      }
      return d;
    },
    // svg makes an SVG element with attributes and, optionally, text.
    svg: function (name, attrs, text) {
      var e = document.createElementNS(SVG_NS, name);
      Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
      if (text !== undefined) e.textContent = text;
      return e;
    },
    // star is the path of an eight-pointed burst centred at (cx, cy), its
    // points at radius r1 and its notches at r2.
    star: function (cx, cy, r1, r2) {
      var d = '';
      for (var i = 0; i < 16; i++) {
        var a = Math.PI * i / 8, r = i % 2 ? r2 : r1;
        d += (i ? 'L' : 'M') + (cx + r * Math.sin(a)).toFixed(2) + ' ' + (cy - r * Math.cos(a)).toFixed(2);
      }
      return d + 'Z';
    },
    // debugCells says that the game's coordinates of debug drawings name
    // the cells of svg, size SVG units square, the cell (x, y) in column
    // x and row y from the top left, or in row x and column y when swap.
    debugCells: function (svg, size, swap) {
      svg.replayDebug = {
        pt: function (x, y) { return swap ? [(y + 0.5) * size, (x + 0.5) * size] : [(x + 0.5) * size, (y + 0.5) * size]; },
        unit: size, cell: size * 0.9, stroke: size * 0.12, font: size * 0.6
      };
    },
    // drawDebug draws, over the board in container, the shapes of debug
    // (a turn's [{seat, shapes}]) of the seats in the set on, in the
    // seat's colour unless a shape names one, and says how many it drew
    // in the container's data-debug-shapes. Texts are set as text.
    drawDebug: function (container, debug, on) {
      var board = container.querySelector('svg[role=img]');
      var n = 0;
      if (board) {
        var old = board.querySelector(':scope > g.debug-layer');
        if (old) old.remove();
        var m = onScreen(board, board.replayDebug);
        var layer = ReplayLab.svg('g', { 'class': 'debug-layer', 'pointer-events': 'none' });
        (m ? debug || [] : []).forEach(function (d) {
          if (!on.has(d.seat)) return;
          (d.shapes || []).forEach(function (s) {
            var e = debugShape(m, s, debugColor(s.color, d.seat));
            if (!e) return;
            e.setAttribute('data-seat', d.seat);
            layer.appendChild(e);
            n++;
          });
        });
        if (n) board.appendChild(layer);
      }
      container.setAttribute('data-debug-shapes', n);
    },
    // html makes an HTML element with a class and, optionally, text.
    html: function (name, className, text) {
      var e = document.createElement(name);
      if (className) e.className = className;
      if (text !== undefined) e.textContent = text;
      return e;
    },
    // phoneCards lets a built table (thead and tbody filled) show each
    // row as a card on a phone (the stylesheet's table.phone-cards): each
    // cell is labelled with its column's header, the row's first cell
    // heads the card, and a row of one cell spanning the table (a group's
    // heading) stays a heading.
    phoneCards: function (table) {
      table.classList.add('phone-cards');
      var heads = Array.prototype.map.call(table.querySelectorAll('thead th'), function (th) { return th.textContent; });
      Array.prototype.forEach.call(table.querySelectorAll('tbody tr'), function (tr) {
        var col = 0;
        Array.prototype.forEach.call(tr.children, function (c, i) {
          if (i === 0) c.classList.add('card-head');
          else if (heads[col]) c.setAttribute('data-label', heads[col]);
          col += c.colSpan || 1;
        });
      });
      return table;
    }
  };
})();

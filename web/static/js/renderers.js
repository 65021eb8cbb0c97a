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

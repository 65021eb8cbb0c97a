// toad.js draws a River Toad frame: the 5x7 board of the original symbols
// ('#' bank, ' ' river, 'S' snake, 'F' fly, 'T' toad, 'X' dead toad) as SVG,
// with the toad's HP, move and status under it.
(function () {
  'use strict';
  var CELL = 56;
  var FILL = { '#': '#9c7a4d', ' ': '#4a90c2', 'S': '#4a90c2', 'F': '#9c7a4d', 'T': '#4a90c2', 'X': '#4a90c2' };
  var ACTIONS = { A: 'left 2', S: 'left 1', D: 'stay', F: 'right 1', G: 'right 2' };

  var el = ReplayLab.svg;

  function piece(g, symbol, x, y) {
    var cx = x + CELL / 2, cy = y + CELL / 2;
    switch (symbol) {
      case 'S': // a snake: a wavy green body
        g.appendChild(el('path', { d: 'M' + (x + 8) + ' ' + cy + ' q 10 -14 20 0 t 20 0', stroke: '#2f7d32', 'stroke-width': 7, fill: 'none', 'stroke-linecap': 'round', 'class': 'snake' }));
        g.appendChild(el('circle', { cx: x + 48, cy: cy, r: 5, fill: '#1b5e20' }));
        break;
      case 'F': // a fly
        g.appendChild(el('ellipse', { cx: cx - 7, cy: cy - 6, rx: 8, ry: 5, fill: '#e3f2fd', opacity: 0.9 }));
        g.appendChild(el('ellipse', { cx: cx + 7, cy: cy - 6, rx: 8, ry: 5, fill: '#e3f2fd', opacity: 0.9 }));
        g.appendChild(el('circle', { cx: cx, cy: cy + 2, r: 6, fill: '#212121', 'class': 'fly' }));
        break;
      case 'T':
      case 'X': // the toad, grey with crossed eyes once dead
        g.appendChild(el('ellipse', { cx: cx, cy: cy + 4, rx: 20, ry: 15, fill: symbol === 'T' ? '#7cb342' : '#9e9e9e', 'class': 'toad' }));
        g.appendChild(el('circle', { cx: cx - 9, cy: cy - 10, r: 6, fill: '#fff' }));
        g.appendChild(el('circle', { cx: cx + 9, cy: cy - 10, r: 6, fill: '#fff' }));
        if (symbol === 'T') {
          g.appendChild(el('circle', { cx: cx - 9, cy: cy - 10, r: 3, fill: '#000' }));
          g.appendChild(el('circle', { cx: cx + 9, cy: cy - 10, r: 3, fill: '#000' }));
        } else {
          g.appendChild(el('text', { x: cx - 9, y: cy - 6, 'text-anchor': 'middle', 'font-size': 10 }, '×'));
          g.appendChild(el('text', { x: cx + 9, y: cy - 6, 'text-anchor': 'middle', 'font-size': 10 }, '×'));
        }
        break;
    }
  }

  function draw(container, state) {
    var board = state.board || [];
    var rows = board.length, cols = rows ? board[0].length : 0;
    var svg = el('svg', { viewBox: '0 0 ' + cols * CELL + ' ' + rows * CELL, role: 'img', 'aria-label': 'River Toad board, turn ' + state.turn, 'data-board': board.join('|') });
    ReplayLab.debugCells(svg, CELL); // a bot's [x, y] is column x, row y from the top
    board.forEach(function (line, r) {
      for (var c = 0; c < line.length; c++) {
        var x = c * CELL, y = r * CELL, symbol = line[c];
        svg.appendChild(el('rect', { x: x, y: y, width: CELL, height: CELL, fill: FILL[symbol] || '#ccc', stroke: '#00000022' }));
        piece(svg, symbol, x, y);
      }
    });
    var caption = document.createElement('p');
    caption.className = 'caption';
    var move = state.action ? ACTIONS[state.action] || state.action : 'start';
    caption.textContent = 'HP ' + state.hp + ' · flies eaten ' + state.flies_eaten + ' · move: ' + move +
      (state.roll >= 0 ? ' · roll ' + state.roll : '') + ' · ' + state.status;
    container.replaceChildren(svg, caption);
  }

  window.ReplayLab.register('toad', draw);
})();

// seatview.js shows, under the inspector's board, what one seat's bot
// received before the turn shown: the request line as sent and, for a game
// with an original text form (Snake), that form drawn in the seat's own
// glyphs. It reads the turn from the heading (#turn-number), which the
// inspector keeps current, and fetches only while the panel is open.
(function () {
  'use strict';
  var panel = document.getElementById('seat-view');
  var number = document.getElementById('turn-number');
  if (!panel || !number) return;
  var select = document.getElementById('seat-view-seat');
  var body = document.getElementById('seat-view-body');
  var api = panel.dataset.api;
  var asked = ''; // the turn and seat of the latest request

  function line(tag, cls, text) {
    var el = document.createElement(tag);
    if (cls) el.className = cls;
    el.textContent = text;
    return el;
  }

  function render(v) {
    body.textContent = '';
    body.appendChild(line('p', 'hint', 'What ' + select.options[select.selectedIndex].text +
      ' received before turn ' + v.turn + ': the state after turn ' + (v.turn - 1) + '.'));
    if (v.rows) {
      body.appendChild(line('h3', '', 'As the original server sends it'));
      body.appendChild(line('pre', 'seat-board', v.rows.join('\n')));
      body.appendChild(line('p', 'hint', v.text_form));
    }
    body.appendChild(line('h3', '', 'The request line, as sent'));
    body.appendChild(line('pre', 'seat-request', JSON.stringify(v.request, null, 1)));
  }

  function update() {
    var turn = Number(number.textContent);
    if (!panel.open) return;
    var key = turn + '/' + select.value;
    if (key === asked) return;
    asked = key;
    if (turn === 0) {
      body.textContent = '';
      body.appendChild(line('p', 'hint', 'Turn 0 is the setup, before any command: the first view is the one before turn 1.'));
      return;
    }
    fetch(api + turn + '/view?seat=' + encodeURIComponent(select.value)).then(function (r) {
      return r.json().then(function (v) {
        if (!r.ok) throw new Error(v.error || r.statusText);
        return v;
      });
    }).then(function (v) {
      if (key === asked) render(v);
    }, function (err) {
      if (key !== asked) return;
      body.textContent = '';
      body.appendChild(line('p', 'error', 'Could not load the view: ' + err.message));
    });
  }

  if (location.hash === '#seat-view') panel.open = true; // a link straight to the panel
  new MutationObserver(update).observe(number, {childList: true, characterData: true, subtree: true});
  panel.addEventListener('toggle', update);
  select.addEventListener('change', update);
  update();
})();

// fork.js is the inspector's "Fork here": it posts the turn shown, with
// the bots and forced command chosen, to the fork API and opens the fork's
// match page; for a match with external bots it keeps the command line's
// --at on the turn shown.
(function () {
  'use strict';
  var number = document.getElementById('turn-number');
  if (!number) { return; }
  function turn() { return parseInt(number.textContent, 10); }

  var line = document.getElementById('fork-command');
  if (line) {
    var keep = function () { line.textContent = line.textContent.replace(/--at \d+/, '--at ' + Math.max(1, turn())); };
    new MutationObserver(keep).observe(number, { childList: true, characterData: true, subtree: true });
    keep();
  }

  var form = document.getElementById('fork-form');
  if (!form) { return; }
  var status = document.getElementById('fork-status');
  var button = document.getElementById('fork-button');
  var last = parseInt(form.dataset.last, 10);

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    var n = turn();
    if (!(n >= 1 && n < last)) {
      status.textContent = 'A fork goes on from a turn from 1 to ' + (last - 1) + '; this is turn ' + n + '.';
      return;
    }
    var body = { turn: n, bots: [], commands: [] };
    form.querySelectorAll('select[name=bot]').forEach(function (s) {
      body.bots.push({ seat_index: parseInt(s.dataset.seat, 10), bot: s.value });
    });
    var seat = form.elements['force-seat'].value;
    if (seat !== '') {
      body.commands.push({ seat_index: parseInt(seat, 10), command: form.elements.command.value });
    }
    if (form.elements.token) { body.token = form.elements.token.value; }
    button.disabled = true;
    status.textContent = 'Playing the fork from turn ' + n + '…';
    fetch(form.dataset.api, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (j) { return { ok: r.ok, j: j }; });
    }).then(function (res) {
      if (!res.ok) { throw new Error(res.j.error || res.j.message || 'the fork failed'); }
      status.textContent = res.j.duplicate ? 'The same fork is stored already; opening it.' : 'Stored; opening the fork.';
      window.location.assign(res.j.url);
    }).catch(function (err) {
      status.textContent = err.message;
      button.disabled = false;
    });
  });
})();

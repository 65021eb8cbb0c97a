// drop.js uploads a replay file dropped anywhere on a page, with the bot
// output file record saved beside it when that is dropped too. It posts
// the files to the API's upload endpoint from this page's own origin, so the
// server's origin checks treat it like the upload form, and shows the
// progress, then a link to the match (new or already stored) or the
// server's error. A server that wants an upload token answers 401: the
// panel then asks for the token and retries. Every text it shows is set
// as text, never as markup.
(function () {
  'use strict';
  var endpoint = '/api/v1/replays';
  var overlay = null, panel = null, depth = 0, lastPick = null; // for a retry with a token

  function hasFiles(e) {
    return e.dataTransfer && Array.prototype.indexOf.call(e.dataTransfer.types, 'Files') >= 0;
  }

  function el(tag, cls, text) {
    var n = document.createElement(tag);
    if (cls) n.className = cls;
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function showOverlay(on) {
    if (on && !overlay) {
      overlay = el('div', 'drop-overlay', 'Drop a replay (.rpl or .rlog), with its .output.jsonl if you have it, to upload it');
      overlay.setAttribute('aria-hidden', 'true');
      document.body.appendChild(overlay);
    }
    if (overlay) overlay.hidden = !on;
  }

  // show replaces the panel's content with the given nodes.
  function show(nodes, state) {
    if (!panel) {
      panel = el('div', 'drop-panel');
      panel.id = 'drop-panel';
      panel.setAttribute('role', 'status');
      panel.setAttribute('aria-live', 'polite');
      document.body.appendChild(panel);
    }
    panel.replaceChildren();
    panel.setAttribute('data-state', state);
    nodes.forEach(function (n) { panel.appendChild(n); });
    var close = el('button', 'drop-close', '×');
    close.type = 'button';
    close.title = 'Close';
    close.setAttribute('aria-label', 'Close');
    close.addEventListener('click', function () { panel.remove(); panel = null; });
    panel.appendChild(close);
  }

  function matchLink(answer) {
    var a = el('a', 'id', answer.id.slice(0, 16));
    a.href = answer.url;
    return a;
  }

  function answered(xhr, name) {
    var answer = null;
    try { answer = JSON.parse(xhr.responseText); } catch (e) { /* not JSON: a proxy's page */ }
    if ((xhr.status === 200 || xhr.status === 201) && answer && answer.url) {
      var p = el('p', '', answer.duplicate ? name + ' is already stored: match ' : name + ' is stored as match ');
      p.appendChild(matchLink(answer));
      var parts = [p];
      if (answer.duplicate && answer.output === 'attached') {
        parts.push(el('p', '', 'Its bot output was missing and is now attached.'));
      } else if (answer.duplicate && answer.output === 'unchanged') {
        parts.push(el('p', '', 'It has bot output already, which was not changed.'));
      }
      show(parts, answer.duplicate ? 'duplicate' : 'stored');
      return;
    }
    if (xhr.status === 401) {
      askToken(answer && answer.error);
      return;
    }
    var msg = answer && answer.error ? answer.error : 'the server answered ' + xhr.status + ' ' + xhr.statusText;
    if (answer && answer.line) msg += ' (line ' + answer.line + ')';
    if (answer && answer.turn) msg += ' (turn ' + answer.turn + ')';
    show([el('p', 'error', name + ' was not stored: ' + msg)], 'error');
  }

  function askToken(why) {
    var form = el('form', 'drop-token');
    var label = el('label', '', 'Upload token');
    var input = el('input');
    input.type = 'password';
    input.name = 'token';
    input.autocomplete = 'off';
    input.required = true;
    label.appendChild(input);
    var button = el('button', '', 'Upload');
    button.type = 'submit';
    form.appendChild(label);
    form.appendChild(button);
    form.addEventListener('submit', function (e) {
      e.preventDefault();
      send(lastPick, input.value.trim());
    });
    show([el('p', '', why || 'This server needs an upload token.'), form], 'token');
    input.focus();
  }

  // pick returns the replay among the dropped files and the bot output
  // file record saved beside it ("FILE.output.jsonl"), if dropped too;
  // null unless that is what was dropped.
  function pick(files) {
    var replay = null, output = null;
    for (var i = 0; i < files.length; i++) {
      if (/\.output\.jsonl$/.test(files[i].name)) {
        if (output) return null;
        output = files[i];
      } else {
        if (replay) return null;
        replay = files[i];
      }
    }
    return replay ? { replay: replay, output: output } : null;
  }

  function send(picked, token) {
    lastPick = picked;
    var file = picked.replay;
    var bar = el('progress');
    bar.max = 1;
    var text = el('p', '', 'Uploading ' + file.name + '…');
    show([text, bar], 'uploading');
    var xhr = new XMLHttpRequest();
    xhr.open('POST', endpoint);
    if (token) xhr.setRequestHeader('Authorization', 'Bearer ' + token);
    xhr.upload.addEventListener('progress', function (e) {
      if (e.lengthComputable) bar.value = e.loaded / e.total;
    });
    xhr.upload.addEventListener('load', function () {
      bar.removeAttribute('value'); // indeterminate while the server regenerates
      text.textContent = 'Regenerating ' + file.name + '…';
    });
    xhr.addEventListener('load', function () { answered(xhr, file.name); });
    xhr.addEventListener('error', function () {
      show([el('p', 'error', file.name + ' was not stored: the server could not be reached')], 'error');
    });
    var form = new FormData();
    form.append('replay', file, file.name);
    if (picked.output) form.append('output', picked.output, picked.output.name); // after the replay, as the server reads it
    xhr.send(form);
  }

  document.addEventListener('dragenter', function (e) {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth++;
    showOverlay(true);
  });
  document.addEventListener('dragover', function (e) {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('dragleave', function (e) {
    if (!hasFiles(e)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) showOverlay(false);
  });
  document.addEventListener('drop', function (e) {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    showOverlay(false);
    var picked = pick(e.dataTransfer.files);
    if (!picked) {
      show([el('p', 'error', 'Drop one replay file at a time, with its .output.jsonl file if you have it.')], 'error');
      return;
    }
    send(picked, '');
  });
})();

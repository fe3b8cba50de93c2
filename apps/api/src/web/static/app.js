// Job Fair: small progressive enhancements. Every page works without this file; it adds
// copy buttons, countdowns and live status updates. No framework, no inline script (CSP).
(function () {
  'use strict';
  var csrf = (document.querySelector('meta[name="csrf-token"]') || {}).content || '';

  function onReady(fn) {
    if (document.readyState !== 'loading') fn();
    else document.addEventListener('DOMContentLoaded', fn);
  }

  function pad(n) {
    return (n < 10 ? '0' : '') + n;
  }

  function fmtDuration(ms) {
    if (ms < 0) ms = 0;
    var s = Math.floor(ms / 1000);
    var h = Math.floor(s / 3600);
    var m = Math.floor((s % 3600) / 60);
    return (h ? h + ':' + pad(m) : m) + ':' + pad(s % 60);
  }

  function fmtWait(seconds) {
    if (seconds === null || seconds === undefined) return 'not known yet';
    if (seconds < 60) return 'under a minute';
    var m = Math.round(seconds / 60);
    return 'about ' + m + ' minute' + (m === 1 ? '' : 's');
  }

  window.JobFair = { csrf: csrf, fmtDuration: fmtDuration };

  onReady(function () {
    var auto = document.querySelector('[data-autofocus]');
    if (auto) auto.focus();

    // Event accent colours come from data attributes (inline styles are blocked by the CSP). They
    // only colour decorative borders: text and buttons keep the site's checked-contrast colours.
    document.querySelectorAll('[data-accent]').forEach(function (el) {
      var c = el.getAttribute('data-accent');
      if (/^#[0-9a-fA-F]{6}$/.test(c)) el.style.setProperty('--event-accent', c);
    });
    document.querySelectorAll('[data-width]').forEach(function (el) {
      var w = Number(el.getAttribute('data-width'));
      if (w >= 0 && w <= 100) el.style.width = w + '%';
    });

    document.querySelectorAll('[data-select-on-focus]').forEach(function (el) {
      el.addEventListener('focus', function () {
        el.select();
      });
    });

    document.querySelectorAll('[data-copy]').forEach(function (btn) {
      btn.addEventListener('click', function () {
        var target = document.querySelector(btn.getAttribute('data-copy'));
        var status = btn.parentNode.querySelector('.copy-status');
        if (!target) return;
        var done = function () {
          if (status) status.textContent = 'Copied';
        };
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(target.value).then(done, function () {
            target.select();
            if (status) status.textContent = 'Press Ctrl+C to copy';
          });
        } else {
          target.select();
          try {
            document.execCommand('copy');
            done();
          } catch (e) {
            if (status) status.textContent = 'Press Ctrl+C to copy';
          }
        }
      });
    });

    // Countdowns: <span data-countdown-to="ISO" data-expired-text="…">
    var countdowns = document.querySelectorAll('[data-countdown-to]');
    if (countdowns.length) {
      var tick = function () {
        countdowns.forEach(function (el) {
          var left = new Date(el.getAttribute('data-countdown-to')).getTime() - Date.now();
          el.textContent = left > 0 ? fmtDuration(left) : el.getAttribute('data-expired-text') || '0:00';
        });
      };
      tick();
      setInterval(tick, 1000);
    }

    // Queue status: polls a small JSON endpoint and updates position, wait and state.
    var q = document.getElementById('queue-status');
    if (q && q.getAttribute('data-status-url')) {
      var url = q.getAttribute('data-status-url');
      var every = Number(q.getAttribute('data-poll-ms')) || 5000;
      var lastStatus = q.getAttribute('data-status');
      var set = function (name, text) {
        var el = q.querySelector('[data-field="' + name + '"]');
        if (el) el.textContent = text;
      };
      var poll = function () {
        fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
          .then(function (r) {
            return r.ok ? r.json() : null;
          })
          .then(function (s) {
            if (!s || !s.queue_entry) return;
            var e = s.queue_entry;
            set('position', e.position === null ? '—' : String(e.position));
            set('wait', fmtWait(e.estimated_wait_seconds));
            set('status', e.status);
            q.setAttribute('data-status', e.status);
            if (e.status !== lastStatus) {
              lastStatus = e.status;
              if (e.status === 'matched' && e.match_url) {
                var m = document.getElementById('matched-box');
                var a = document.getElementById('matched-link');
                if (a) a.setAttribute('href', e.match_url);
                if (m) {
                  m.hidden = false;
                  m.focus();
                }
              } else if (e.status !== 'waiting') {
                window.location.reload();
              }
            }
          })
          .catch(function () {})
          .then(function () {
            if (lastStatus === 'waiting') setTimeout(poll, every);
          });
      };
      if (lastStatus === 'waiting') setTimeout(poll, every);
    }

    // Match page: reload when the other side acts or the match expires.
    var ms = document.getElementById('match-state');
    if (ms && ms.getAttribute('data-state-url')) {
      var stateUrl = ms.getAttribute('data-state-url');
      var version = ms.getAttribute('data-version');
      var pollMatch = function () {
        fetch(stateUrl, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
          .then(function (r) {
            return r.ok ? r.json() : null;
          })
          .then(function (s) {
            if (s && s.version !== version) window.location.reload();
            else setTimeout(pollMatch, Number(ms.getAttribute('data-poll-ms')) || 3000);
          })
          .catch(function () {
            setTimeout(pollMatch, 5000);
          });
      };
      setTimeout(pollMatch, Number(ms.getAttribute('data-poll-ms')) || 3000);
    }
  });
})();

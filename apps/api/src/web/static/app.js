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

  // Times: the server writes <time datetime="ISO" title="… UTC">… UTC</time>; here the text
  // becomes the viewer's own zone (the title keeps UTC on hover). Called again after each live
  // refresh, which brings fresh server text.
  var localFormat = null;
  try {
    localFormat = new Intl.DateTimeFormat(undefined, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    });
  } catch (e) {}
  function localizeTimes(scope) {
    if (!localFormat) return;
    (scope || document).querySelectorAll('time[data-local-time][datetime]').forEach(function (el) {
      var d = new Date(el.getAttribute('datetime'));
      if (isNaN(d.getTime())) return;
      el.textContent = localFormat.format(d);
      el.setAttribute('data-localized', '1');
    });
  }

  window.JobFair = { csrf: csrf, fmtDuration: fmtDuration, localizeTimes: localizeTimes };

  onReady(function () {
    localizeTimes();
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

    // Skill inputs hold skills separated by commas: suggest vocabulary skills for the one being
    // typed (by label or alias: "k8s" suggests Kubernetes), keeping the skills before it. Each
    // input gets its own <datalist>; an option's label repeats what was typed so the browser's own
    // filter (it matches the input's whole value) keeps it.
    var vocab = document.getElementById('skill-suggestions');
    if (vocab) {
      var skillEntries = Array.prototype.map.call(vocab.options, function (o) {
        var spellings = [o.value].concat((o.getAttribute('data-aliases') || '').split('|'));
        return {
          label: o.value,
          spellings: spellings.map(function (x) {
            return x.toLowerCase();
          }),
        };
      });
      document.querySelectorAll('input[data-skill-input]').forEach(function (el, n) {
        var list = document.createElement('datalist');
        list.id = 'skill-suggestions-' + n;
        el.parentNode.appendChild(list);
        el.setAttribute('list', list.id);
        var suggest = function () {
          var cut = el.value.lastIndexOf(',');
          var head = cut < 0 ? '' : el.value.slice(0, cut + 1).replace(/\s*$/, ' ');
          var typed = el.value.slice(cut + 1).trim();
          var term = typed.toLowerCase();
          list.textContent = '';
          if (!term) return;
          var exact = [];
          var prefix = [];
          skillEntries.forEach(function (e) {
            var hit = null;
            e.spellings.forEach(function (s) {
              if (!hit && s === term) hit = 'exact';
            });
            if (!hit)
              e.spellings.forEach(function (s) {
                if (!hit && s.indexOf(term) === 0) hit = 'prefix';
              });
            if (hit === 'exact') exact.push(e);
            else if (hit === 'prefix') prefix.push(e);
          });
          exact
            .concat(prefix)
            .slice(0, 12)
            .forEach(function (e) {
              var o = document.createElement('option');
              o.value = head + e.label;
              if (e.label.toLowerCase().indexOf(term) !== 0) o.label = head + typed + ' → ' + e.label;
              list.appendChild(o);
            });
        };
        el.addEventListener('input', suggest);
        suggest();
      });
    }

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

    // Countdowns: <span data-countdown-to="ISO" data-expired-text="…">, looked up on every tick
    // because live updates replace parts of the page.
    var tick = function () {
      document.querySelectorAll('[data-countdown-to]').forEach(function (el) {
        var left = new Date(el.getAttribute('data-countdown-to')).getTime() - Date.now();
        el.textContent = left > 0 ? fmtDuration(left) : el.getAttribute('data-expired-text') || '0:00';
      });
    };
    tick();
    setInterval(tick, 1000);

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
            if (typeof e.outlook === 'string') set('outlook', e.outlook);
            set('status', e.status);
            q.setAttribute('data-status', e.status);
            if (e.status !== lastStatus) {
              lastStatus = e.status;
              if (e.status === 'matched' && e.match_url) {
                // Matched: a position in line and a wait no longer apply.
                q.querySelectorAll('[data-waiting-only]').forEach(function (el) {
                  el.hidden = true;
                });
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

    // Live updates (server-sent events from /live): the parts of the page that show a state
    // ([data-live-region][id]) are re-read from the server, the tab title carries the number of
    // matches waiting for you, and a change is announced (screen readers) and, where the browser
    // allows it and the tab is in the background, shown as a notification.
    var markDirty = function (e) {
      var f = e.target && e.target.form;
      if (f) f.setAttribute('data-dirty', '1');
    };
    document.addEventListener('input', markDirty, true);
    document.addEventListener('change', markDirty, true);
    var liveUrl = document.body.getAttribute('data-live-url');
    if (liveUrl && window.EventSource) {
      var baseTitle = document.body.getAttribute('data-base-title') || document.title;
      var announcer = document.getElementById('live-announcer');
      var setTitle = function (pending) {
        if (typeof pending === 'number') document.title = (pending > 0 ? '(' + pending + ') ' : '') + baseTitle;
      };
      var refreshing = null;
      var refresh = function () {
        if (refreshing) return;
        refreshing = setTimeout(function () {
          refreshing = null;
          if (!document.querySelector('[data-live-region][id]')) return;
          fetch(window.location.href, { headers: { accept: 'text/html' }, credentials: 'same-origin' })
            .then(function (r) {
              return r.ok ? r.text() : null;
            })
            .then(function (text) {
              if (!text) return;
              var doc = new DOMParser().parseFromString(text, 'text/html');
              var a = document.activeElement;
              var typing =
                a &&
                (a.tagName === 'TEXTAREA' || (a.tagName === 'INPUT' && a.type !== 'hidden' && a.type !== 'submit')) &&
                a.value
                  ? a
                  : null;
              document.querySelectorAll('[data-live-region][id]').forEach(function (el) {
                var fresh = doc.getElementById(el.id);
                // A form being filled in is left alone: the person's typing (or any choice they
                // made in it, e.g. radio buttons, even with the focus on its button) wins over a refresh.
                // So is an opened confirmation (e.g. "Leave the queue"), which a refresh would close.
                if (
                  fresh &&
                  !(typing && el.contains(typing)) &&
                  !el.querySelector('form[data-dirty]') &&
                  !el.querySelector('details[open]')
                )
                  el.innerHTML = fresh.innerHTML;
              });
              tick();
              localizeTimes();
              document.body.setAttribute('data-live-refreshed', String(Date.now()));
            })
            .catch(function () {});
        }, 150);
      };
      var TEXT = {
        matched: 'New match: open Matches to review it before the deadline.',
        accepted: 'Match accepted by both sides: the interview room is open.',
        declined: 'A match was declined.',
        expired: 'A match expired: nobody accepted in time.',
        completed: 'An interview was completed.',
        no_show: 'A match ended as a no-show: someone did not come to the interview room.',
      };
      var notify = function (text) {
        if (announcer) announcer.textContent = text;
        if (document.hidden && window.Notification && Notification.permission === 'granted') {
          try {
            new Notification('Job Fair', { body: text, tag: 'jobfair-live' });
          } catch (e) {}
        }
      };
      var es = new EventSource(liveUrl);
      es.addEventListener('hello', function (e) {
        var d = JSON.parse(e.data);
        setTitle(d.pending);
        document.body.setAttribute('data-live', 'connected');
        // Whatever changed between rendering this page and subscribing is read once now.
        refresh();
      });
      es.addEventListener('change', function (e) {
        var c = JSON.parse(e.data);
        setTitle(c.pending);
        if (c.kind === 'match' && c.status !== c.previous_status && TEXT[c.status]) notify(TEXT[c.status]);
        refresh();
        // Other scripts of the page (the interview room) hear the same change.
        try {
          document.dispatchEvent(new CustomEvent('jobfair:live-change', { detail: c }));
        } catch (err) {}
      });
      window.addEventListener('pagehide', function () {
        es.close();
      });

      var enable = document.getElementById('enable-notifications');
      if (enable && window.Notification && Notification.permission === 'default') {
        enable.hidden = false;
        enable.addEventListener('click', function () {
          Notification.requestPermission().then(function () {
            enable.hidden = true;
          });
        });
      }
    }
  });
})();

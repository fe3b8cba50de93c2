// Job Fair interview room: what the page shows whichever engine carries the call (room-peer.js:
// peer to peer over our signalling socket; room-livekit.js: through a LiveKit server). Here: the
// pre-join check, the camera and microphone buttons, the signs on the tiles, the interview clock
// and leaving. Every word comes from the server's catalogue (messages.ts ROOM_SCRIPT_WORDS, passed
// in `data-words`). An engine script calls JobFairRoomPage.open(engine), sets itself up, then
// calls page.start(); the page calls the engine back:
//   engine.start()                      the person clicked "Join the interview";
//   engine.setMedia(kind, on, tracks)   the camera or microphone button was pressed;
//   engine.retry()                      "Try again" after no path was found;
//   engine.hangUp()                     the interview is over: end the call;
//   engine.leave()                      (optional) the person ends the interview with the form.
(function () {
  'use strict';

  var VIDEO = { width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 15, max: 24 } };

  function byId(id) {
    return document.getElementById(id);
  }

  function elements() {
    return {
      clock: byId('room-clock'),
      elapsed: byId('room-elapsed'),
      leftWrap: byId('room-left-wrap'),
      clockHint: byId('room-clock-hint'),
      endControl: byId('end-control'),
      endHint: byId('end-hint'),
      status: byId('room-status-text'),
      timer: byId('room-timer'),
      localVideo: byId('local-video'),
      remoteVideo: byId('remote-video'),
      camBtn: byId('toggle-camera'),
      micBtn: byId('toggle-mic'),
      path: byId('room-path'),
      reconnecting: byId('room-reconnecting'),
      noPath: byId('room-nopath'),
      retryBtn: byId('room-retry'),
      precheck: byId('precheck'),
      inCall: byId('in-call'),
      preStatus: byId('precheck-status'),
      preview: byId('preview-video'),
      camSelect: byId('camera-select'),
      micSelect: byId('mic-select'),
      meter: byId('mic-level'),
      joinBtn: byId('join-room'),
    };
  }

  function timeOf(root, name) {
    return root.getAttribute(name) ? new Date(root.getAttribute(name)).getTime() : 0;
  }

  /** What the page says, from the server's message catalogue; `{name}` is filled in from `fill`. */
  function wordsOf(root) {
    var W = {};
    try {
      W = JSON.parse(root.getAttribute('data-words') || '{}');
    } catch (e) {
      W = {};
    }
    return function w(key, fill) {
      var text = W[key] || key;
      Object.keys(fill || {}).forEach(function (k) {
        text = text.replace('{' + k + '}', fill[k]);
      });
      return text;
    };
  }

  /** The page an engine drives: its elements, words and state, and what both engines show. */
  function open(engine) {
    var root = byId('room');
    if (!root) return null;
    var page = {
      root: root,
      el: elements(),
      w: wordsOf(root),
      matchUrl: root.getAttribute('data-match-url'),
      matchId: root.getAttribute('data-match-id'),
      completeAction: root.getAttribute('data-complete-action'),
      state: {
        localStream: null,
        ended: false,
        // The interview clock starts when both are in the room; until then endsAt is the latest
        // the room stays open for them to arrive.
        startedAt: timeOf(root, 'data-started-at'),
        endsAt: new Date(root.getAttribute('data-ends-at') || 0).getTime(),
        // With no-shows on: whoever has not come by arriveBy is a no-show (the server decides; the page follows).
        arriveBy: timeOf(root, 'data-arrive-by'),
      },
    };
    page.status = function (text) {
      page.el.status.textContent = text;
    };
    page.showSigns = showSigns;
    page.stopMedia = function () {
      stopMedia(page);
    };
    page.finish = function (text) {
      finish(page, engine, text);
    };
    page.applyClock = function (msg) {
      applyClock(page, msg);
    };
    page.leaveIfOver = function (status) {
      leaveIfOver(page, status);
    };
    page.showPath = function (path) {
      showPath(page, path);
    };
    page.start = function () {
      watchClock(page);
      bindControls(page, engine);
      startPrecheck(page);
    };
    return page;
  }

  /** The off-signs on a tile (`local` or `remote`): shown for what is off. */
  function showSigns(prefix, s) {
    var mic = byId(prefix + '-mic-off');
    var cam = byId(prefix + '-cam-off');
    if (mic) mic.hidden = !!s.audio;
    if (cam) cam.hidden = !!s.video;
  }

  /** Which way the call goes (`direct`, `relayed`, `server`): the one sentence for it is shown. */
  function showPath(page, path) {
    page.root.setAttribute('data-path', path);
    Array.prototype.forEach.call(page.el.path.querySelectorAll('[data-path]'), function (el) {
      el.hidden = el.getAttribute('data-path') !== path;
    });
    page.el.path.hidden = false;
  }

  function stopMedia(page) {
    if (page.state.localStream)
      page.state.localStream.getTracks().forEach(function (t) {
        t.stop();
      });
  }

  /** The interview is over for this page: say why, end the call, and go to the match page. */
  function finish(page, engine, text) {
    if (page.state.ended) return;
    page.state.ended = true;
    page.status(text);
    engine.hangUp();
    stopMedia(page);
    setTimeout(function () {
      window.location.href = page.matchUrl;
    }, 1500);
  }

  // The match moved on while this page is open (a no-show at the arrival deadline, or ended
  // elsewhere): leave for the match page, which says what happened.
  function leaveIfOver(page, status) {
    if (status && status !== 'accepted') page.finish(status === 'no_show' ? page.w('noShow') : page.w('ended'));
  }

  /** The clock as the server has it (both are here): the interview has started and may be ended. */
  function applyClock(page, msg) {
    var s = msg.started_at ? new Date(msg.started_at).getTime() : 0;
    var e = msg.ends_at ? new Date(msg.ends_at).getTime() : 0;
    if (!s || !e) return;
    var fresh = !page.state.startedAt;
    page.state.startedAt = s;
    page.state.endsAt = e;
    if (page.el.endControl) page.el.endControl.hidden = false;
    if (page.el.endHint) page.el.endHint.hidden = true;
    if (fresh && page.el.clockHint)
      page.el.clockHint.textContent = page.w('clockRunning', {
        time: new Date(e).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }),
      });
    tick(page);
  }

  function dur(ms) {
    return window.JobFair ? window.JobFair.fmtDuration(ms) : Math.max(0, Math.round(ms / 1000)) + ' s';
  }

  // Heard through the page's live updates (app.js); after the arrival deadline also asked once a
  // few seconds, in case they are off.
  function watchClock(page) {
    document.addEventListener('jobfair:live-change', function (e) {
      var c = e.detail || {};
      if (c.kind === 'match' && c.id === page.matchId) page.leaveIfOver(c.status);
    });
    tick(page);
    setInterval(function () {
      tick(page);
    }, 1000);
  }

  var lastAsked = 0;
  function askState(page) {
    var st = page.state;
    if (st.ended || !st.arriveBy || st.startedAt || Date.now() < st.arriveBy || Date.now() - lastAsked < 3000) return;
    lastAsked = Date.now();
    fetch(page.matchUrl + '/state.json', { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (s) {
        if (s) page.leaveIfOver(s.status);
      })
      .catch(function () {});
  }

  function tick(page) {
    var st = page.state;
    askState(page);
    if (!st.endsAt) return;
    var left = st.endsAt - Date.now();
    if (st.startedAt) {
      page.el.clock.setAttribute('data-clock-state', 'running');
      page.el.elapsed.textContent = dur(Date.now() - st.startedAt);
      page.el.leftWrap.hidden = false;
      page.el.timer.textContent = dur(left);
    }
    if (left <= 0 && !st.ended) {
      // The interview length is over: complete it (the server side would too, on its own timer).
      fetch(page.completeAction, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json', 'x-csrf-token': (window.JobFair && window.JobFair.csrf) || '' },
      }).catch(function () {});
      page.finish(page.w('timeUp'));
    }
  }

  /** Camera or microphone on or off: the engine switches it, the button says what a press does next. */
  function toggle(page, engine, kind, btn, onLabel, offLabel) {
    var stream = page.state.localStream;
    if (!stream) return;
    var tracks = kind === 'video' ? stream.getVideoTracks() : stream.getAudioTracks();
    if (!tracks.length) return;
    var enabled = !tracks[0].enabled;
    btn.setAttribute('aria-pressed', String(!enabled));
    btn.textContent = enabled ? onLabel : offLabel;
    engine.setMedia(kind, enabled, tracks);
  }

  function bindControls(page, engine) {
    var el = page.el;
    var w = page.w;
    el.retryBtn.addEventListener('click', function () {
      engine.retry();
    });
    el.camBtn.addEventListener('click', function () {
      toggle(page, engine, 'video', el.camBtn, w('cameraOff'), w('cameraOn'));
    });
    el.micBtn.addEventListener('click', function () {
      toggle(page, engine, 'audio', el.micBtn, w('micOff'), w('micOn'));
    });
    var leaveForm = document.querySelector('form[action="' + page.completeAction + '"]');
    if (leaveForm)
      leaveForm.addEventListener('submit', function () {
        page.state.ended = true;
        if (engine.leave) engine.leave();
        stopMedia(page);
      });
    el.joinBtn.addEventListener('click', function () {
      joinCall(page, engine);
    });
  }

  /** "Join the interview": the pre-join check gives way to the call, with the chosen devices or none. */
  function joinCall(page, engine) {
    var el = page.el;
    var stream = page.state.localStream;
    stopMeter(el);
    el.preview.srcObject = null;
    el.precheck.hidden = true;
    el.inCall.hidden = false;
    page.root.setAttribute('data-joined', '1');
    if (stream) el.localVideo.srcObject = stream;
    else {
      el.camBtn.disabled = true;
      el.micBtn.disabled = true;
      page.status(page.w('noDevicesInCall'));
    }
    if (stream && !stream.getVideoTracks().length) el.camBtn.disabled = true;
    if (stream && !stream.getAudioTracks().length) el.micBtn.disabled = true;
    engine.start();
  }

  // Pre-join check: a preview, the camera and microphone to use (enumerateDevices), a level meter
  // for the microphone, and a clear message when the browser refuses or finds no device. "Join the
  // interview" then connects with the chosen devices (or with none: the person still sees and hears).
  var meterState = { ctx: null, timer: null };

  function preState(page, state, text) {
    page.el.precheck.setAttribute('data-precheck-state', state);
    page.el.preStatus.textContent = text;
  }

  function stopMeter(el) {
    if (meterState.timer) clearInterval(meterState.timer);
    meterState.timer = null;
    if (meterState.ctx) meterState.ctx.close().catch(function () {});
    meterState.ctx = null;
    el.meter.value = 0;
  }

  function startMeter(el, stream) {
    stopMeter(el);
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx || !stream || !stream.getAudioTracks().length) return;
    try {
      var ctx = (meterState.ctx = new Ctx());
      var analyser = ctx.createAnalyser();
      analyser.fftSize = 512;
      ctx.createMediaStreamSource(stream).connect(analyser);
      var data = new Uint8Array(analyser.fftSize);
      meterState.timer = setInterval(function () {
        analyser.getByteTimeDomainData(data);
        showLevel(el.meter, data);
      }, 100);
      if (ctx.state === 'suspended') ctx.resume().catch(function () {});
    } catch (e) {
      meterState.ctx = null;
    }
  }

  function showLevel(meter, data) {
    var peak = 0;
    for (var i = 0; i < data.length; i++) peak = Math.max(peak, Math.abs(data[i] - 128) / 128);
    meter.value = Math.min(1, peak);
    meter.textContent = Math.round(peak * 100) + '%';
    meter.setAttribute('data-peak', String(Math.max(Number(meter.getAttribute('data-peak') || 0), peak)));
  }

  function fill(page, select, devices, kind, currentId, none) {
    var list = devices.filter(function (d) {
      return d.kind === kind;
    });
    select.innerHTML = '';
    if (!list.length) {
      var o = document.createElement('option');
      o.value = '';
      o.textContent = none;
      select.appendChild(o);
      select.disabled = true;
      return;
    }
    list.forEach(function (d, i) {
      var opt = document.createElement('option');
      opt.value = d.deviceId;
      opt.textContent = d.label || page.w(kind === 'videoinput' ? 'cameraN' : 'micN', { n: String(i + 1) });
      if (d.deviceId === currentId) opt.selected = true;
      select.appendChild(opt);
    });
    select.disabled = false;
  }

  function trackDevice(stream, kind) {
    var t = stream && (kind === 'video' ? stream.getVideoTracks()[0] : stream.getAudioTracks()[0]);
    var s = t && t.getSettings ? t.getSettings() : {};
    return s.deviceId || '';
  }

  function usePreview(page, stream) {
    var el = page.el;
    var w = page.w;
    if (page.state.localStream && page.state.localStream !== stream) stopMedia(page);
    page.state.localStream = stream;
    el.preview.srcObject = stream;
    startMeter(el, stream);
    return navigator.mediaDevices.enumerateDevices().then(function (devices) {
      fill(page, el.camSelect, devices, 'videoinput', trackDevice(stream, 'video'), w('noCameraFound'));
      fill(page, el.micSelect, devices, 'audioinput', trackDevice(stream, 'audio'), w('noMicFound'));
      var hasV = stream.getVideoTracks().length > 0;
      var hasA = stream.getAudioTracks().length > 0;
      preState(page, 'ready', hasV && hasA ? w('precheckBoth') : hasA ? w('precheckMicOnly') : w('precheckCameraOnly'));
    });
  }

  function explain(page, err) {
    var name = err && err.name;
    var w = page.w;
    if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') {
      preState(page, 'denied', w('precheckDenied'));
    } else if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') {
      preState(page, 'none', w('precheckNone'));
    } else if (name === 'NotReadableError' || name === 'TrackStartError') {
      preState(page, 'none', w('precheckBusy'));
    } else {
      preState(page, 'none', w('precheckUnsupported'));
    }
    page.el.camSelect.disabled = true;
    page.el.micSelect.disabled = true;
  }

  function getMedia(video, audio) {
    return navigator.mediaDevices.getUserMedia({ video: video, audio: audio });
  }

  function startPrecheck(page) {
    var el = page.el;
    var use = function (stream) {
      return usePreview(page, stream);
    };
    var fail = function (err) {
      explain(page, err);
    };
    el.camSelect.addEventListener('change', function () {
      switchDevices(page, use, fail);
    });
    el.micSelect.addEventListener('change', function () {
      switchDevices(page, use, fail);
    });
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) return fail(null);
    getMedia(VIDEO, true)
      .catch(function (err) {
        // One of the two may be missing: try each alone before giving up (a denial stays a denial).
        if (err && (err.name === 'NotAllowedError' || err.name === 'SecurityError')) throw err;
        return getMedia(false, true).catch(function () {
          return getMedia(VIDEO, false).catch(function () {
            throw err;
          });
        });
      })
      .then(use)
      .catch(fail);
  }

  function switchDevices(page, use, fail) {
    var el = page.el;
    var v =
      el.camSelect.disabled || !el.camSelect.value
        ? false
        : Object.assign({ deviceId: { exact: el.camSelect.value } }, VIDEO);
    var a = el.micSelect.disabled || !el.micSelect.value ? false : { deviceId: { exact: el.micSelect.value } };
    if (!v && !a) return;
    stopMeter(el);
    stopMedia(page);
    page.state.localStream = null;
    getMedia(v, a).then(use).catch(fail);
  }

  window.JobFairRoomPage = { open: open };
})();

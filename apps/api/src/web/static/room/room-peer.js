// Job Fair interview room: a two-party WebRTC call (peer to peer). Signalling (SDP offers and
// answers, ICE candidates) goes through the API's WebSocket; media never touches the API (it goes
// directly, or through the configured TURN relay when the networks allow no direct route).
(function () {
  'use strict';
  var root = document.getElementById('room');
  if (!root) return;
  var signalPath = root.getAttribute('data-signal-path');
  // The interview clock starts when both are in the room (the server tells both pages with a
  // `clock` message); until then endsAt is the latest the room stays open for them to arrive.
  var endsAt = new Date(root.getAttribute('data-ends-at') || 0).getTime();
  var startedAt = root.getAttribute('data-started-at') ? new Date(root.getAttribute('data-started-at')).getTime() : 0;
  var clockEl = document.getElementById('room-clock');
  var elapsedEl = document.getElementById('room-elapsed');
  var leftWrap = document.getElementById('room-left-wrap');
  var clockHint = document.getElementById('room-clock-hint');
  var completeAction = root.getAttribute('data-complete-action');
  var matchUrl = root.getAttribute('data-match-url');
  var matchId = root.getAttribute('data-match-id');
  // With no-shows on: whoever has not come by arriveBy is a no-show (the server decides; the page follows).
  var arriveBy = root.getAttribute('data-arrive-by') ? new Date(root.getAttribute('data-arrive-by')).getTime() : 0;
  var endControl = document.getElementById('end-control');
  var endHint = document.getElementById('end-hint');
  var statusEl = document.getElementById('room-status-text');
  var timerEl = document.getElementById('room-timer');
  var localVideo = document.getElementById('local-video');
  var remoteVideo = document.getElementById('remote-video');
  var camBtn = document.getElementById('toggle-camera');
  var micBtn = document.getElementById('toggle-mic');
  var pathEl = document.getElementById('room-path');
  var reconnectingEl = document.getElementById('room-reconnecting');
  var noPathEl = document.getElementById('room-nopath');
  var retryBtn = document.getElementById('room-retry');
  var connectTimeoutMs = Number(root.getAttribute('data-connect-timeout-ms')) || 30000;
  // What the page says, from the server's message catalogue (messages.ts ROOM_SCRIPT_WORDS).
  var W = {};
  try {
    W = JSON.parse(root.getAttribute('data-words') || '{}');
  } catch (e) {
    W = {};
  }
  function w(key, fill) {
    var text = W[key] || key;
    Object.keys(fill || {}).forEach(function (k) {
      text = text.replace('{' + k + '}', fill[k]);
    });
    return text;
  }

  var pc = null;
  var ws = null;
  var localStream = null;
  var pending = [];
  var ended = false;
  var retry = 0;
  // The ICE servers (STUN, TURN with this party's credential) arrive on the signalling socket.
  var iceConfig = { iceServers: [], iceTransportPolicy: 'all' };
  var offerer = false;
  var connectTimer = null;
  var disconnectTimer = null;
  var restarts = 0;
  // The signalling socket is open; the other person's socket dropped (the server says `peer-away`).
  // While either is false/true no ICE restart is tried and no "no path" is shown: the call starts
  // afresh when both are back (`start`).
  var wsUp = false;
  var peerAway = false;
  var reconnectTimer = null;
  // Away longer than the server's grace and no word (the replica holding them stopped for good):
  // the page stops waiting as if told they left.
  var graceMs = Number(root.getAttribute('data-reconnect-grace-ms')) || 30000;
  var awayTimer = null;

  // For people and for tests: the live RTCPeerConnection and the signalling socket.
  window.jobfairRoom = {
    get pc() {
      return pc;
    },
    get ws() {
      return ws;
    },
  };

  function status(text) {
    statusEl.textContent = text;
  }

  function send(msg) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  }

  function describe(state) {
    return (
      {
        new: w('connecting'),
        connecting: w('connecting'),
        connected: w('connected'),
        disconnected: w('reconnecting'),
        failed: w('reconnecting'),
        closed: w('callClosed'),
      }[state] || state
    );
  }

  function clearTimers() {
    if (connectTimer) clearTimeout(connectTimer);
    if (disconnectTimer) clearTimeout(disconnectTimer);
    connectTimer = disconnectTimer = null;
  }

  /** Which path the call takes, from the selected candidate pair: relayed if either end is a TURN relay. */
  function showPath() {
    if (!pc) return;
    var current = pc;
    current
      .getStats()
      .then(function (stats) {
        if (current !== pc) return;
        var pair = null;
        stats.forEach(function (r) {
          if (r.type === 'transport' && r.selectedCandidatePairId) pair = stats.get(r.selectedCandidatePairId);
        });
        if (!pair)
          stats.forEach(function (r) {
            if (!pair && r.type === 'candidate-pair' && r.nominated && r.state === 'succeeded') pair = r;
          });
        if (!pair) return;
        var local = stats.get(pair.localCandidateId);
        var remote = stats.get(pair.remoteCandidateId);
        var path =
          (local && local.candidateType === 'relay') || (remote && remote.candidateType === 'relay')
            ? 'relayed'
            : 'direct';
        root.setAttribute('data-path', path);
        Array.prototype.forEach.call(pathEl.querySelectorAll('[data-path]'), function (el) {
          el.hidden = el.getAttribute('data-path') !== path;
        });
        pathEl.hidden = false;
      })
      .catch(function () {});
  }

  function showReconnecting(on) {
    // With a socket down (ours or theirs) the status line says which; the hint is for a media drop.
    reconnectingEl.hidden = !on || !wsUp || peerAway;
    // The path in use is unknown until the call is back (showPath tells it again).
    if (on) pathEl.hidden = true;
    if (on) root.setAttribute('data-reconnecting', '1');
    else root.removeAttribute('data-reconnecting');
  }

  /** No path between the browsers (ICE failed, or none found in time): say so and what to try. */
  function noPath() {
    clearTimers();
    // Without signalling (ours or theirs) nothing could be tried: that is reconnecting, not "no path".
    if (!wsUp || peerAway) return showReconnecting(true);
    showReconnecting(false);
    root.setAttribute('data-connection-state', 'failed');
    root.setAttribute('data-no-path', '1');
    pathEl.hidden = true;
    noPathEl.hidden = false;
    status(w('noConnection'));
  }

  /**
   * ICE restart: the offerer makes a new offer with fresh ICE credentials (new candidates, a new
   * TURN allocation); the other side asks it to. Tried again after ROOM_CONNECT_TIMEOUT_MS, up to
   * MAX_RESTARTS times, then the page says no path was found.
   */
  var MAX_RESTARTS = 3;
  function restartIce() {
    if (!pc || ended) return;
    if (connectTimer) clearTimeout(connectTimer);
    connectTimer = null;
    // The other side cannot be reached until the signalling is back: wait for `start` then.
    if (!wsUp || peerAway) return showReconnecting(true);
    if (restarts >= MAX_RESTARTS) return noPath();
    restarts++;
    showReconnecting(true);
    status(describe('disconnected'));
    send({ type: 'restart' });
    if (offerer) offer({ iceRestart: true });
    connectTimer = setTimeout(restartIce, connectTimeoutMs);
  }

  function offer(opts) {
    var current = pc;
    // One offer at a time: a restart asked by both sides at once makes one new offer.
    if (current.signalingState !== 'stable') return;
    current
      .createOffer(opts)
      .then(function (o) {
        return current.setLocalDescription(o);
      })
      .then(function () {
        send({ type: 'offer', sdp: current.localDescription.toJSON() });
      })
      .catch(function () {});
  }

  function closePc() {
    clearTimers();
    if (pc) {
      pc.onicecandidate = pc.ontrack = pc.onconnectionstatechange = pc.oniceconnectionstatechange = null;
      pc.close();
    }
    pc = null;
    pending = [];
    remoteVideo.srcObject = null;
  }

  function newPc() {
    closePc();
    // No STUN/TURN configured: host candidates connect browsers on the same network only.
    pc = new RTCPeerConnection({ iceServers: iceConfig.iceServers, iceTransportPolicy: iceConfig.iceTransportPolicy });
    noPathEl.hidden = true;
    root.removeAttribute('data-no-path');
    connectTimer = setTimeout(noPath, connectTimeoutMs);
    if (localStream) {
      localStream.getTracks().forEach(function (t) {
        pc.addTrack(t, localStream);
      });
    } else {
      pc.addTransceiver('video', { direction: 'recvonly' });
      pc.addTransceiver('audio', { direction: 'recvonly' });
    }
    pc.ontrack = function (e) {
      if (e.streams && e.streams[0]) remoteVideo.srcObject = e.streams[0];
    };
    pc.onicecandidate = function (e) {
      if (e.candidate) send({ type: 'candidate', candidate: e.candidate.toJSON() });
    };
    pc.onconnectionstatechange = function () {
      var state = pc.connectionState;
      if (state === 'connected') {
        clearTimers();
        restarts = 0;
        showReconnecting(false);
        send({ type: 'connected' });
        showPath();
      } else if (state === 'failed') {
        return restartIce();
      } else if (state === 'disconnected' && !disconnectTimer) {
        // Often back by itself within a few seconds (a brief loss); else restart ICE.
        disconnectTimer = setTimeout(function () {
          disconnectTimer = null;
          if (pc && pc.connectionState === 'disconnected') restartIce();
        }, 3000);
        showReconnecting(true);
      }
      if (root.getAttribute('data-no-path') !== '1') {
        root.setAttribute('data-connection-state', state);
        // While a socket is down the status line keeps saying whose connection dropped.
        if (wsUp && !peerAway) status(describe(state));
      }
    };
    root.setAttribute('data-connection-state', 'new');
    return pc;
  }

  function flush() {
    var list = pending;
    pending = [];
    list.forEach(function (c) {
      pc.addIceCandidate(c).catch(function () {});
    });
  }

  function onMessage(ev) {
    var msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    if (msg.type === 'ice') {
      iceConfig = { iceServers: msg.iceServers || [], iceTransportPolicy: msg.iceTransportPolicy || 'all' };
    } else if (msg.type === 'restart') {
      // The other side lost the connection: show it here too; the offerer restarts ICE.
      showReconnecting(true);
      if (offerer && pc) offer({ iceRestart: true });
    } else if (msg.type === 'connected') {
      if (pc && pc.connectionState === 'connected') showReconnecting(false);
    } else if (msg.type === 'waiting') {
      // Alone in the room (back after a drop, the other gone or away): a call kept from before is over.
      if (pc) {
        closePc();
        showReconnecting(false);
        root.setAttribute('data-connection-state', 'new');
      }
      status(w('waiting'));
    } else if (msg.type === 'peer-away') {
      // Their signalling dropped: they are reconnecting (the server keeps them in the room meanwhile).
      peerAway = true;
      if (awayTimer) clearTimeout(awayTimer);
      awayTimer = setTimeout(function () {
        if (peerAway) onMessage({ data: JSON.stringify({ type: 'peer-left' }) });
      }, graceMs + 10000);
      clearTimers();
      showReconnecting(true);
      root.setAttribute('data-peer', 'away');
      status(w('otherAway'));
    } else if (msg.type === 'media-state') {
      showSigns('remote', { audio: msg.audio === true, video: msg.video === true });
    } else if (msg.type === 'start') {
      if (awayTimer) clearTimeout(awayTimer);
      offerer = !!msg.offerer;
      restarts = 0;
      peerAway = false;
      root.removeAttribute('data-peer');
      newPc();
      announceMedia();
      status(w('otherHere'));
      if (offerer) offer();
    } else if (msg.type === 'offer') {
      if (!pc) newPc();
      pc.setRemoteDescription(msg.sdp)
        .then(function () {
          flush();
          return pc.createAnswer();
        })
        .then(function (answer) {
          return pc.setLocalDescription(answer);
        })
        .then(function () {
          send({ type: 'answer', sdp: pc.localDescription.toJSON() });
        });
    } else if (msg.type === 'answer') {
      if (pc) pc.setRemoteDescription(msg.sdp).then(flush);
    } else if (msg.type === 'candidate') {
      if (!pc) return;
      if (pc.remoteDescription) pc.addIceCandidate(msg.candidate).catch(function () {});
      else pending.push(msg.candidate);
    } else if (msg.type === 'peer-left') {
      if (awayTimer) clearTimeout(awayTimer);
      peerAway = false;
      root.setAttribute('data-peer', 'left');
      closePc();
      showReconnecting(false);
      pathEl.hidden = true;
      root.setAttribute('data-connection-state', 'new');
      status(w('otherLeft'));
    } else if (msg.type === 'clock') {
      var s = msg.started_at ? new Date(msg.started_at).getTime() : 0;
      var e = msg.ends_at ? new Date(msg.ends_at).getTime() : 0;
      if (s && e) {
        var fresh = !startedAt;
        startedAt = s;
        endsAt = e;
        // Both are here: the interview has started and may be ended.
        if (endControl) endControl.hidden = false;
        if (endHint) endHint.hidden = true;
        if (fresh && clockHint)
          clockHint.textContent = w('clockRunning', {
            time: new Date(e).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }),
          });
        tick();
      }
    } else if (msg.type === 'room-closed') {
      finish(w('ended'));
    }
  }

  /**
   * The signalling socket. When it drops (network lost or changed, tab woken from sleep, an API
   * replica restarting) it is opened again with a growing pause (0.5 s doubling to 10 s, jittered;
   * at once when the browser says it is back online). The peer connection is kept meanwhile (media
   * may still flow); the server keeps this person in the room for ROOM_RECONNECT_GRACE_MS and, once
   * both sockets are back, sends `start`: a fresh call on both sides, the same interview and clock.
   */
  function connect() {
    if (ended) return;
    if (reconnectTimer) clearTimeout(reconnectTimer);
    reconnectTimer = null;
    var url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + signalPath;
    var socket = new WebSocket(url);
    ws = socket;
    socket.onopen = function () {
      retry = 0;
      wsUp = true;
      root.removeAttribute('data-signal');
    };
    socket.onmessage = onMessage;
    socket.onclose = function (ev) {
      if (socket !== ws) return;
      wsUp = false;
      if (ended) return;
      if (ev.code === 4000) {
        // This person opened the room again elsewhere: the call continues there.
        closePc();
        return status(w('replaced'));
      }
      clearTimers();
      showReconnecting(true);
      root.setAttribute('data-signal', 'reconnecting');
      status(w('signalLost'));
      var pause = Math.min(10000, 500 * Math.pow(2, retry));
      retry = Math.min(retry + 1, 5);
      reconnectTimer = setTimeout(connect, pause * (0.5 + Math.random() / 2));
    };
  }
  // Back online: try at once instead of waiting out the pause. Gone offline: the socket is dead
  // even if the browser has not noticed yet, so close it and start reconnecting.
  window.addEventListener('online', function () {
    if (reconnectTimer && !ended) connect();
  });
  window.addEventListener('offline', function () {
    if (ws && ws.readyState === WebSocket.OPEN) ws.close();
  });
  // Leaving the page (step out, reload, closing the tab) is leaving the room: say so, so the other
  // side is told at once instead of after the reconnection grace.
  window.addEventListener('pagehide', function () {
    send({ type: 'bye' });
  });

  function stopMedia() {
    if (localStream)
      localStream.getTracks().forEach(function (t) {
        t.stop();
      });
  }

  function finish(text) {
    if (ended) return;
    ended = true;
    status(text);
    closePc();
    stopMedia();
    if (ws) ws.close();
    setTimeout(function () {
      window.location.href = matchUrl;
    }, 1500);
  }

  function dur(ms) {
    return window.JobFair ? window.JobFair.fmtDuration(ms) : Math.max(0, Math.round(ms / 1000)) + ' s';
  }

  // The match moved on while this page is open (a no-show at the arrival deadline, or ended
  // elsewhere): leave for the match page, which says what happened. Heard through the page's live
  // updates (app.js); after the arrival deadline also asked once a few seconds, in case they are off.
  function leaveIfOver(status) {
    if (status && status !== 'accepted') finish(status === 'no_show' ? w('noShow') : w('ended'));
  }
  document.addEventListener('jobfair:live-change', function (e) {
    var c = e.detail || {};
    if (c.kind === 'match' && c.id === matchId) leaveIfOver(c.status);
  });
  var lastAsked = 0;
  function askState() {
    if (ended || !arriveBy || startedAt || Date.now() < arriveBy || Date.now() - lastAsked < 3000) return;
    lastAsked = Date.now();
    fetch(matchUrl + '/state.json', { headers: { accept: 'application/json' }, credentials: 'same-origin' })
      .then(function (r) {
        return r.ok ? r.json() : null;
      })
      .then(function (s) {
        if (s) leaveIfOver(s.status);
      })
      .catch(function () {});
  }

  function tick() {
    askState();
    if (!endsAt) return;
    var left = endsAt - Date.now();
    if (startedAt) {
      clockEl.setAttribute('data-clock-state', 'running');
      elapsedEl.textContent = dur(Date.now() - startedAt);
      leftWrap.hidden = false;
      timerEl.textContent = dur(left);
    }
    if (left <= 0 && !ended) {
      // The interview length is over: complete it (the server side would too, on its own timer).
      fetch(completeAction, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json', 'x-csrf-token': (window.JobFair && window.JobFair.csrf) || '' },
      }).catch(function () {});
      finish(w('timeUp'));
    }
  }

  /** The off-signs on the tiles: mine from my tracks, theirs from their `media-state` message. */
  function mediaState() {
    if (!localStream) return { audio: false, video: false };
    var a = localStream.getAudioTracks();
    var v = localStream.getVideoTracks();
    return { audio: a.length > 0 && a[0].enabled, video: v.length > 0 && v[0].enabled };
  }
  function showSigns(prefix, s) {
    var mic = document.getElementById(prefix + '-mic-off');
    var cam = document.getElementById(prefix + '-cam-off');
    if (mic) mic.hidden = !!s.audio;
    if (cam) cam.hidden = !!s.video;
  }
  function announceMedia() {
    var s = mediaState();
    showSigns('local', s);
    send({ type: 'media-state', audio: s.audio, video: s.video });
  }

  function toggle(kind, btn, onLabel, offLabel) {
    if (!localStream) return;
    var tracks = kind === 'video' ? localStream.getVideoTracks() : localStream.getAudioTracks();
    if (!tracks.length) return;
    var enabled = !tracks[0].enabled;
    tracks.forEach(function (t) {
      t.enabled = enabled;
    });
    btn.setAttribute('aria-pressed', String(!enabled));
    btn.textContent = enabled ? onLabel : offLabel;
    announceMedia();
  }

  // Try again after no path was found: a fresh signalling socket starts a fresh call on both sides.
  retryBtn.addEventListener('click', function () {
    noPathEl.hidden = true;
    root.removeAttribute('data-no-path');
    status(w('connecting'));
    retry = 0;
    if (ws) ws.close();
  });

  camBtn.addEventListener('click', function () {
    toggle('video', camBtn, w('cameraOff'), w('cameraOn'));
  });
  micBtn.addEventListener('click', function () {
    toggle('audio', micBtn, w('micOff'), w('micOn'));
  });
  var leaveForm = document.querySelector('form[action="' + completeAction + '"]');
  if (leaveForm)
    leaveForm.addEventListener('submit', function () {
      ended = true;
      stopMedia();
    });

  tick();
  setInterval(tick, 1000);

  // Pre-join check: a preview, the camera and microphone to use (enumerateDevices), a level meter
  // for the microphone, and a clear message when the browser refuses or finds no device. "Join the
  // interview" then connects with the chosen devices (or with none: the person still sees and hears).
  var precheck = document.getElementById('precheck');
  var inCall = document.getElementById('in-call');
  var preStatus = document.getElementById('precheck-status');
  var preview = document.getElementById('preview-video');
  var camSelect = document.getElementById('camera-select');
  var micSelect = document.getElementById('mic-select');
  var meter = document.getElementById('mic-level');
  var joinBtn = document.getElementById('join-room');
  var audioCtx = null;
  var meterTimer = null;

  function preState(state, text) {
    precheck.setAttribute('data-precheck-state', state);
    preStatus.textContent = text;
  }

  function stopMeter() {
    if (meterTimer) clearInterval(meterTimer);
    meterTimer = null;
    if (audioCtx) audioCtx.close().catch(function () {});
    audioCtx = null;
    meter.value = 0;
  }

  function startMeter(stream) {
    stopMeter();
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx || !stream || !stream.getAudioTracks().length) return;
    try {
      audioCtx = new Ctx();
      var analyser = audioCtx.createAnalyser();
      analyser.fftSize = 512;
      audioCtx.createMediaStreamSource(stream).connect(analyser);
      var data = new Uint8Array(analyser.fftSize);
      meterTimer = setInterval(function () {
        analyser.getByteTimeDomainData(data);
        var peak = 0;
        for (var i = 0; i < data.length; i++) peak = Math.max(peak, Math.abs(data[i] - 128) / 128);
        meter.value = Math.min(1, peak);
        meter.textContent = Math.round(peak * 100) + '%';
        meter.setAttribute('data-peak', String(Math.max(Number(meter.getAttribute('data-peak') || 0), peak)));
      }, 100);
      if (audioCtx.state === 'suspended') audioCtx.resume().catch(function () {});
    } catch (e) {
      audioCtx = null;
    }
  }

  function fill(select, devices, kind, currentId, none) {
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
      opt.textContent = d.label || w(kind === 'videoinput' ? 'cameraN' : 'micN', { n: String(i + 1) });
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

  function usePreview(stream) {
    if (localStream && localStream !== stream) stopMedia();
    localStream = stream;
    preview.srcObject = stream;
    startMeter(stream);
    return navigator.mediaDevices.enumerateDevices().then(function (devices) {
      fill(camSelect, devices, 'videoinput', trackDevice(stream, 'video'), w('noCameraFound'));
      fill(micSelect, devices, 'audioinput', trackDevice(stream, 'audio'), w('noMicFound'));
      var hasV = stream.getVideoTracks().length > 0;
      var hasA = stream.getAudioTracks().length > 0;
      preState('ready', hasV && hasA ? w('precheckBoth') : hasA ? w('precheckMicOnly') : w('precheckCameraOnly'));
    });
  }

  function explain(err) {
    var name = err && err.name;
    if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') {
      preState('denied', w('precheckDenied'));
    } else if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') {
      preState('none', w('precheckNone'));
    } else if (name === 'NotReadableError' || name === 'TrackStartError') {
      preState('none', w('precheckBusy'));
    } else {
      preState('none', w('precheckUnsupported'));
    }
    camSelect.disabled = true;
    micSelect.disabled = true;
  }

  function getMedia(video, audio) {
    return navigator.mediaDevices.getUserMedia({ video: video, audio: audio });
  }
  var VIDEO = { width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 15, max: 24 } };

  function firstCheck() {
    if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
      explain(null);
      return;
    }
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
      .then(usePreview)
      .catch(explain);
  }

  function switchDevices() {
    var v =
      camSelect.disabled || !camSelect.value ? false : Object.assign({ deviceId: { exact: camSelect.value } }, VIDEO);
    var a = micSelect.disabled || !micSelect.value ? false : { deviceId: { exact: micSelect.value } };
    if (!v && !a) return;
    stopMeter();
    stopMedia();
    localStream = null;
    getMedia(v, a).then(usePreview).catch(explain);
  }
  camSelect.addEventListener('change', switchDevices);
  micSelect.addEventListener('change', switchDevices);

  joinBtn.addEventListener('click', function () {
    stopMeter();
    preview.srcObject = null;
    precheck.hidden = true;
    inCall.hidden = false;
    root.setAttribute('data-joined', '1');
    if (localStream) localVideo.srcObject = localStream;
    else {
      camBtn.disabled = true;
      micBtn.disabled = true;
      status(w('noDevicesInCall'));
    }
    if (localStream && !localStream.getVideoTracks().length) camBtn.disabled = true;
    if (localStream && !localStream.getAudioTracks().length) micBtn.disabled = true;
    connect();
  });

  firstCheck();
})();

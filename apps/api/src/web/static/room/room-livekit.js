// Job Fair interview room on LiveKit (VIDEO_PROVIDER=livekit): the same page as the built-in room
// (pre-join check, tiles with names, mute and camera signs, the interview clock), but the call goes
// through a LiveKit server (an SFU) with livekit-client (served from our node_modules as
// /static/livekit-client.js). The page asks our API for its LiveKit URL and participant token;
// LiveKit tells our API who is in the room (webhooks), which starts the clock.
(function () {
  'use strict';
  var root = document.getElementById('room');
  if (!root || !window.LivekitClient) return;
  var LK = window.LivekitClient;
  var joinPath = root.getAttribute('data-join-path');
  var endsAt = new Date(root.getAttribute('data-ends-at') || 0).getTime();
  var startedAt = root.getAttribute('data-started-at') ? new Date(root.getAttribute('data-started-at')).getTime() : 0;
  var clockEl = document.getElementById('room-clock');
  var elapsedEl = document.getElementById('room-elapsed');
  var leftWrap = document.getElementById('room-left-wrap');
  var clockHint = document.getElementById('room-clock-hint');
  var completeAction = root.getAttribute('data-complete-action');
  var matchUrl = root.getAttribute('data-match-url');
  var matchId = root.getAttribute('data-match-id');
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
  var clockPath = joinPath ? joinPath.replace(/\/livekit\?/, '/clock.json?') : '';

  var room = null;
  var localStream = null;
  var ended = false;

  // For people and for tests: the live LiveKit Room, and what this page has decoded from the other side.
  window.jobfairRoom = {
    get room() {
      return room;
    },
    /** Video frames and audio samples decoded from the other person (inbound-rtp stats). */
    received: function () {
      var out = { framesDecoded: 0, audioSamples: 0 };
      if (!room) return Promise.resolve(out);
      var tracks = [];
      room.remoteParticipants.forEach(function (p) {
        p.trackPublications.forEach(function (pub) {
          if (pub.track && pub.track.receiver) tracks.push(pub.track);
        });
      });
      return Promise.all(
        tracks.map(function (t) {
          return t.receiver.getStats().then(function (stats) {
            stats.forEach(function (r) {
              if (r.type !== 'inbound-rtp') return;
              if (r.kind === 'video') out.framesDecoded += r.framesDecoded || 0;
              if (r.kind === 'audio') out.audioSamples += r.totalSamplesReceived || 0;
            });
          });
        }),
      ).then(function () {
        return out;
      });
    },
  };

  function status(text) {
    statusEl.textContent = text;
  }

  function connectionState(state) {
    root.setAttribute('data-connection-state', state);
  }

  function showReconnecting(on) {
    reconnectingEl.hidden = !on;
    if (on) pathEl.hidden = true;
    if (on) root.setAttribute('data-reconnecting', '1');
    else root.removeAttribute('data-reconnecting');
  }

  /** The call goes through the LiveKit server: say so once connected. */
  function showPath() {
    root.setAttribute('data-path', 'server');
    Array.prototype.forEach.call(pathEl.querySelectorAll('[data-path]'), function (el) {
      el.hidden = el.getAttribute('data-path') !== 'server';
    });
    pathEl.hidden = false;
  }

  /** The video server could not be reached (or refused the token): say so and what to try. */
  function noPath() {
    showReconnecting(false);
    connectionState('failed');
    root.setAttribute('data-no-path', '1');
    pathEl.hidden = true;
    noPathEl.hidden = false;
    status('No connection.');
  }

  function remoteSigns() {
    var audio = false;
    var video = false;
    var present = false;
    if (room)
      room.remoteParticipants.forEach(function (p) {
        present = true;
        p.trackPublications.forEach(function (pub) {
          if (pub.kind === LK.Track.Kind.Audio && !pub.isMuted) audio = true;
          if (pub.kind === LK.Track.Kind.Video && !pub.isMuted) video = true;
        });
      });
    if (present) showSigns('remote', { audio: audio, video: video });
  }

  function showSigns(prefix, s) {
    var mic = document.getElementById(prefix + '-mic-off');
    var cam = document.getElementById(prefix + '-cam-off');
    if (mic) mic.hidden = !!s.audio;
    if (cam) cam.hidden = !!s.video;
  }

  function otherHere() {
    status('The other person is here. You are in the interview.');
    remoteSigns();
    askClock();
  }

  function applyClock(msg) {
    var s = msg.started_at ? new Date(msg.started_at).getTime() : 0;
    var e = msg.ends_at ? new Date(msg.ends_at).getTime() : 0;
    if (!s || !e) return;
    var fresh = !startedAt;
    startedAt = s;
    endsAt = e;
    if (endControl) endControl.hidden = false;
    if (endHint) endHint.hidden = true;
    if (fresh && clockHint)
      clockHint.textContent =
        'You are both here: the interview clock is running. It ends at ' +
        new Date(e).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', timeZoneName: 'short' }) +
        '.';
    tick();
  }

  // The clock comes as a LiveKit data message from our API when both are in; a page that joined
  // just then may miss it, so while the other person is here and the clock unknown, ask.
  var clockAsking = null;
  function askClock() {
    if (startedAt || clockAsking || !clockPath) return;
    var tries = 0;
    clockAsking = setInterval(function () {
      if (ended || startedAt || ++tries > 40 || !room || room.remoteParticipants.size === 0) {
        clearInterval(clockAsking);
        clockAsking = null;
        return;
      }
      fetch(clockPath, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
        .then(function (r) {
          return r.ok ? r.json() : null;
        })
        .then(function (c) {
          if (c) applyClock(c);
          if (c) leaveIfOver(c.status);
        })
        .catch(function () {});
    }, 1000);
  }

  function attachRemote(track) {
    if (track.kind === LK.Track.Kind.Video || track.kind === LK.Track.Kind.Audio) track.attach(remoteVideo);
  }

  function join() {
    if (ended) return;
    noPathEl.hidden = true;
    root.removeAttribute('data-no-path');
    connectionState('connecting');
    status('Connecting…');
    fetch(joinPath, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'x-csrf-token': (window.JobFair && window.JobFair.csrf) || '' },
    })
      .then(function (r) {
        if (r.status === 409) {
          finish('The interview room is closed.');
          throw null;
        }
        if (!r.ok) throw new Error('join ' + r.status);
        return r.json();
      })
      .then(function (j) {
        if (j.started_at) applyClock(j);
        room = new LK.Room({ adaptiveStream: false, dynacast: true });
        room
          .on(LK.RoomEvent.TrackSubscribed, function (track) {
            attachRemote(track);
            remoteSigns();
          })
          .on(LK.RoomEvent.TrackUnsubscribed, function (track) {
            track.detach(remoteVideo);
          })
          .on(LK.RoomEvent.TrackMuted, remoteSigns)
          .on(LK.RoomEvent.TrackUnmuted, remoteSigns)
          .on(LK.RoomEvent.TrackPublished, remoteSigns)
          .on(LK.RoomEvent.ParticipantConnected, otherHere)
          .on(LK.RoomEvent.ParticipantDisconnected, function () {
            status('The other person left the room; waiting for them to come back…');
          })
          .on(LK.RoomEvent.Reconnecting, function () {
            root.setAttribute('data-reconnects', String(Number(root.getAttribute('data-reconnects') || 0) + 1));
            showReconnecting(true);
            connectionState('reconnecting');
            status('Reconnecting…');
          })
          .on(LK.RoomEvent.Reconnected, function () {
            showReconnecting(false);
            connectionState('connected');
            showPath();
            status(
              room.remoteParticipants.size
                ? 'Connected. You are in the interview.'
                : 'Waiting for the other person to join…',
            );
          })
          .on(LK.RoomEvent.DataReceived, function (payload, _participant, _kind, topic) {
            if (topic !== 'jobfair') return;
            try {
              var msg = JSON.parse(new TextDecoder().decode(payload));
              if (msg.type === 'clock') applyClock(msg);
            } catch (e) {
              /* not ours */
            }
          })
          .on(LK.RoomEvent.Disconnected, function (reason) {
            if (ended) return;
            if (reason === LK.DisconnectReason.ROOM_DELETED) return finish('The interview has ended.');
            if (reason === LK.DisconnectReason.DUPLICATE_IDENTITY) {
              connectionState('replaced');
              return status('You opened this room in another tab or window; the call continues there.');
            }
            noPath();
          });
        return room.connect(j.url, j.token).then(function () {
          connectionState('connected');
          showPath();
          var publishing = localStream
            ? localStream.getTracks().map(function (t) {
                return room.localParticipant.publishTrack(t, {
                  source: t.kind === 'video' ? LK.Track.Source.Camera : LK.Track.Source.Microphone,
                });
              })
            : [];
          room.remoteParticipants.forEach(function (p) {
            p.trackPublications.forEach(function (pub) {
              if (pub.track) attachRemote(pub.track);
            });
          });
          if (room.remoteParticipants.size) otherHere();
          else status('Waiting for the other person to join…');
          return Promise.all(publishing);
        });
      })
      .catch(function (err) {
        if (err === null || ended) return;
        noPath();
      });
  }

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
    if (room) room.disconnect().catch(function () {});
    stopMedia();
    setTimeout(function () {
      window.location.href = matchUrl;
    }, 1500);
  }

  function dur(ms) {
    return window.JobFair ? window.JobFair.fmtDuration(ms) : Math.max(0, Math.round(ms / 1000)) + ' s';
  }

  // The match moved on while this page is open (a no-show, or ended elsewhere): go to the match page.
  function leaveIfOver(s) {
    if (s && s !== 'accepted')
      finish(
        s === 'no_show' ? 'The other person did not come: the match ended as a no-show.' : 'The interview has ended.',
      );
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
      fetch(completeAction, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json', 'x-csrf-token': (window.JobFair && window.JobFair.csrf) || '' },
      }).catch(function () {});
      finish('Time is up: the interview has ended.');
    }
  }

  /** Camera and microphone on or off: the published track is muted (LiveKit tells the other side). */
  function toggle(kind, btn, onLabel, offLabel) {
    if (!localStream) return;
    var tracks = kind === 'video' ? localStream.getVideoTracks() : localStream.getAudioTracks();
    if (!tracks.length) return;
    var enabled = !tracks[0].enabled;
    var source = kind === 'video' ? LK.Track.Source.Camera : LK.Track.Source.Microphone;
    var pub = room && room.localParticipant.getTrackPublication(source);
    if (pub && pub.track) (enabled ? pub.track.unmute() : pub.track.mute()).catch(function () {});
    else
      tracks.forEach(function (t) {
        t.enabled = enabled;
      });
    btn.setAttribute('aria-pressed', String(!enabled));
    btn.textContent = enabled ? onLabel : offLabel;
    showSigns('local', {
      audio: kind === 'audio' ? enabled : localStream.getAudioTracks().some(on),
      video: kind === 'video' ? enabled : localStream.getVideoTracks().some(on),
    });
  }
  function on(t) {
    return t.enabled;
  }

  retryBtn.addEventListener('click', function () {
    if (room) room.disconnect().catch(function () {});
    room = null;
    join();
  });
  camBtn.addEventListener('click', function () {
    toggle('video', camBtn, 'Turn camera off', 'Turn camera on');
  });
  micBtn.addEventListener('click', function () {
    toggle('audio', micBtn, 'Mute microphone', 'Unmute microphone');
  });
  var leaveForm = document.querySelector('form[action="' + completeAction + '"]');
  if (leaveForm)
    leaveForm.addEventListener('submit', function () {
      ended = true;
      if (room) room.disconnect().catch(function () {});
      stopMedia();
    });

  tick();
  setInterval(tick, 1000);

  // Pre-join check (as in the built-in room): a preview, the camera and microphone to use, a level
  // meter, and a clear message when the browser refuses or finds no device.
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
      opt.textContent = d.label || (kind === 'videoinput' ? 'Camera ' : 'Microphone ') + (i + 1);
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
      fill(camSelect, devices, 'videoinput', trackDevice(stream, 'video'), 'No camera found');
      fill(micSelect, devices, 'audioinput', trackDevice(stream, 'audio'), 'No microphone found');
      var hasV = stream.getVideoTracks().length > 0;
      var hasA = stream.getAudioTracks().length > 0;
      preState(
        'ready',
        hasV && hasA
          ? 'Your camera and microphone work. Choose others below if you like, then join.'
          : hasA
            ? 'Your microphone works; no camera is in use. You can join without video.'
            : 'Your camera works; no microphone is in use. You can join, but the other person will not hear you.',
      );
    });
  }

  function explain(err) {
    var name = err && err.name;
    if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') {
      preState(
        'denied',
        'Your browser blocked the camera and microphone for this site. Allow them in the site settings (the camera icon in the address bar) and reload this page, or join without them: you will still see and hear the other person.',
      );
    } else if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') {
      preState(
        'none',
        'No camera or microphone was found. Connect one and reload this page, or join without them: you will still see and hear the other person.',
      );
    } else if (name === 'NotReadableError' || name === 'TrackStartError') {
      preState(
        'none',
        'Your camera or microphone is in use by another program. Close it and reload this page, or join without them.',
      );
    } else {
      preState(
        'none',
        'This browser cannot use a camera or microphone here. You can join and still see and hear the other person.',
      );
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
    if (localStream) {
      localVideo.srcObject = localStream;
      showSigns('local', {
        audio: localStream.getAudioTracks().length > 0,
        video: localStream.getVideoTracks().length > 0,
      });
    } else {
      camBtn.disabled = true;
      micBtn.disabled = true;
      status('No camera or microphone in use: you can still see and hear the other person.');
    }
    if (localStream && !localStream.getVideoTracks().length) camBtn.disabled = true;
    if (localStream && !localStream.getAudioTracks().length) micBtn.disabled = true;
    join();
  });

  firstCheck();
})();

// Job Fair interview room: a two-party WebRTC call (peer to peer). Signalling (SDP offers and
// answers, ICE candidates) goes through the API's WebSocket; media never touches the server.
(function () {
  'use strict';
  var root = document.getElementById('room');
  if (!root) return;
  var signalPath = root.getAttribute('data-signal-path');
  var endsAt = new Date(root.getAttribute('data-ends-at') || 0).getTime();
  var completeAction = root.getAttribute('data-complete-action');
  var matchUrl = root.getAttribute('data-match-url');
  var statusEl = document.getElementById('room-status-text');
  var timerEl = document.getElementById('room-timer');
  var localVideo = document.getElementById('local-video');
  var remoteVideo = document.getElementById('remote-video');
  var camBtn = document.getElementById('toggle-camera');
  var micBtn = document.getElementById('toggle-mic');

  var pc = null;
  var ws = null;
  var localStream = null;
  var pending = [];
  var ended = false;
  var retry = 0;

  // For people and for tests: the live RTCPeerConnection and its state.
  window.jobfairRoom = {
    get pc() {
      return pc;
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
        new: 'Connecting…',
        connecting: 'Connecting…',
        connected: 'Connected. You are in the interview.',
        disconnected: 'Connection interrupted; trying to reconnect…',
        failed: 'The connection failed; reconnecting…',
        closed: 'Call closed.',
      }[state] || state
    );
  }

  function closePc() {
    if (pc) {
      pc.onicecandidate = pc.ontrack = pc.onconnectionstatechange = null;
      pc.close();
    }
    pc = null;
    pending = [];
    remoteVideo.srcObject = null;
  }

  function newPc() {
    closePc();
    // No STUN/TURN by default: host candidates connect browsers on the same network.
    pc = new RTCPeerConnection({ iceServers: [] });
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
      root.setAttribute('data-connection-state', pc.connectionState);
      status(describe(pc.connectionState));
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
    if (msg.type === 'waiting') {
      status('Waiting for the other person to join…');
    } else if (msg.type === 'media-state') {
      showSigns('remote', { audio: msg.audio === true, video: msg.video === true });
    } else if (msg.type === 'start') {
      newPc();
      announceMedia();
      status('The other person is here. Connecting…');
      if (msg.offerer) {
        pc.createOffer()
          .then(function (offer) {
            return pc.setLocalDescription(offer);
          })
          .then(function () {
            send({ type: 'offer', sdp: pc.localDescription.toJSON() });
          });
      }
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
      closePc();
      root.setAttribute('data-connection-state', 'new');
      status('The other person left the room; waiting for them to come back…');
    } else if (msg.type === 'room-closed') {
      finish('The interview has ended.');
    }
  }

  function connect() {
    if (ended) return;
    var url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + signalPath;
    ws = new WebSocket(url);
    ws.onopen = function () {
      retry = 0;
    };
    ws.onmessage = onMessage;
    ws.onclose = function (ev) {
      if (ended) return;
      if (ev.code === 4000) return; // replaced by this user's newer tab
      closePc();
      retry = Math.min(retry + 1, 5);
      status('Connection to the room lost; reconnecting…');
      setTimeout(connect, 1000 * retry);
    };
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
    closePc();
    stopMedia();
    if (ws) ws.close();
    setTimeout(function () {
      window.location.href = matchUrl;
    }, 1500);
  }

  function tick() {
    if (!endsAt) return;
    var left = endsAt - Date.now();
    timerEl.textContent = window.JobFair ? window.JobFair.fmtDuration(left) : Math.max(0, Math.round(left / 1000)) + ' s';
    if (left <= 0 && !ended) {
      // The interview length is over: complete it (the server side would too, on its own timer).
      fetch(completeAction, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { accept: 'application/json', 'x-csrf-token': (window.JobFair && window.JobFair.csrf) || '' },
      }).catch(function () {});
      finish('Time is up: the interview has ended.');
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
      stopMedia();
    });

  tick();
  setInterval(tick, 1000);

  var media = navigator.mediaDevices && navigator.mediaDevices.getUserMedia ? navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 640 }, height: { ideal: 480 }, frameRate: { ideal: 15, max: 24 } }, audio: true }) : Promise.reject(new Error('no media devices'));
  media
    .catch(function () {
      if (!navigator.mediaDevices) return null;
      return navigator.mediaDevices.getUserMedia({ audio: true }).catch(function () {
        return null;
      });
    })
    .then(function (stream) {
      localStream = stream;
      if (stream) localVideo.srcObject = stream;
      else {
        camBtn.disabled = true;
        micBtn.disabled = true;
        status('No camera or microphone available: you can still see and hear the other person.');
      }
      if (stream && !stream.getVideoTracks().length) camBtn.disabled = true;
      connect();
    });
})();

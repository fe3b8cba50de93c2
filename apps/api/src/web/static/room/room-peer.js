// Job Fair interview room, the built-in engine: a two-party WebRTC call (peer to peer). Signalling
// (SDP offers and answers, ICE candidates) goes through the API's WebSocket; media never touches
// the API (it goes directly, or through the configured TURN relay when the networks allow no direct
// route). What both engines show (pre-join check, clock, signs, leaving) is room-page.js.
(function () {
  'use strict';
  if (!document.getElementById('room') || !window.JobFairRoomPage) return;
  /**
   * ICE restart: the offerer makes a new offer with fresh ICE credentials (new candidates, a new
   * TURN allocation); the other side asks it to. Tried again after ROOM_CONNECT_TIMEOUT_MS, up to
   * MAX_RESTARTS times, then the page says no path was found.
   */
  var MAX_RESTARTS = 3;
  var call = newCall();
  function newCall() {
    return {
      pc: null,
      ws: null,
      pending: [],
      retry: 0,
      // The ICE servers (STUN, TURN with this party's credential) arrive on the signalling socket.
      iceConfig: { iceServers: [], iceTransportPolicy: 'all' },
      offerer: false,
      connectTimer: null,
      disconnectTimer: null,
      restarts: 0,
      // The signalling socket is open; the other person's socket dropped (the server says `peer-away`).
      // While either is false/true no ICE restart is tried and no "no path" is shown: the call starts
      // afresh when both are back (`start`).
      wsUp: false,
      peerAway: false,
      reconnectTimer: null,
      awayTimer: null,
    };
  }
  var page = window.JobFairRoomPage.open({
    start: connect,
    setMedia: function (kind, enabled, tracks) {
      tracks.forEach(function (t) {
        t.enabled = enabled;
      });
      announceMedia();
    },
    // Try again after no path was found: a fresh signalling socket starts a fresh call on both sides.
    retry: function () {
      page.el.noPath.hidden = true;
      root.removeAttribute('data-no-path');
      page.status(w('connecting'));
      call.retry = 0;
      if (call.ws) call.ws.close();
    },
    hangUp: function () {
      closePc();
      if (call.ws) call.ws.close();
    },
  });
  var root = page.root;
  var el = page.el;
  var w = page.w;
  var signalPath = root.getAttribute('data-signal-path');
  var connectTimeoutMs = Number(root.getAttribute('data-connect-timeout-ms')) || 30000;
  // Away longer than the server's grace and no word (the replica holding them stopped for good):
  // the page stops waiting as if told they left.
  var graceMs = Number(root.getAttribute('data-reconnect-grace-ms')) || 30000;

  // For people and for tests: the live RTCPeerConnection and the signalling socket.
  window.jobfairRoom = {
    get pc() {
      return call.pc;
    },
    get ws() {
      return call.ws;
    },
  };

  function send(msg) {
    if (call.ws && call.ws.readyState === WebSocket.OPEN) call.ws.send(JSON.stringify(msg));
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
    if (call.connectTimer) clearTimeout(call.connectTimer);
    if (call.disconnectTimer) clearTimeout(call.disconnectTimer);
    call.connectTimer = call.disconnectTimer = null;
  }

  /** The selected candidate pair from the stats (or the nominated one that succeeded). */
  function selectedPair(stats) {
    var pair = null;
    stats.forEach(function (r) {
      if (r.type === 'transport' && r.selectedCandidatePairId) pair = stats.get(r.selectedCandidatePairId);
    });
    if (!pair)
      stats.forEach(function (r) {
        if (!pair && r.type === 'candidate-pair' && r.nominated && r.state === 'succeeded') pair = r;
      });
    return pair;
  }

  /** Which path the call takes, from the selected candidate pair: relayed if either end is a TURN relay. */
  function showPath() {
    if (!call.pc) return;
    var current = call.pc;
    current
      .getStats()
      .then(function (stats) {
        if (current !== call.pc) return;
        var pair = selectedPair(stats);
        if (!pair) return;
        var local = stats.get(pair.localCandidateId);
        var remote = stats.get(pair.remoteCandidateId);
        var relayed = (local && local.candidateType === 'relay') || (remote && remote.candidateType === 'relay');
        page.showPath(relayed ? 'relayed' : 'direct');
      })
      .catch(function () {});
  }

  function showReconnecting(on) {
    // With a socket down (ours or theirs) the status line says which; the hint is for a media drop.
    el.reconnecting.hidden = !on || !call.wsUp || call.peerAway;
    // The path in use is unknown until the call is back (showPath tells it again).
    if (on) el.path.hidden = true;
    if (on) root.setAttribute('data-reconnecting', '1');
    else root.removeAttribute('data-reconnecting');
  }

  /** No path between the browsers (ICE failed, or none found in time): say so and what to try. */
  function noPath() {
    clearTimers();
    // Without signalling (ours or theirs) nothing could be tried: that is reconnecting, not "no path".
    if (!call.wsUp || call.peerAway) return showReconnecting(true);
    showReconnecting(false);
    root.setAttribute('data-connection-state', 'failed');
    root.setAttribute('data-no-path', '1');
    el.path.hidden = true;
    el.noPath.hidden = false;
    page.status(w('noConnection'));
  }

  function restartIce() {
    if (!call.pc || page.state.ended) return;
    if (call.connectTimer) clearTimeout(call.connectTimer);
    call.connectTimer = null;
    // The other side cannot be reached until the signalling is back: wait for `start` then.
    if (!call.wsUp || call.peerAway) return showReconnecting(true);
    if (call.restarts >= MAX_RESTARTS) return noPath();
    call.restarts++;
    showReconnecting(true);
    page.status(describe('disconnected'));
    send({ type: 'restart' });
    if (call.offerer) offer({ iceRestart: true });
    call.connectTimer = setTimeout(restartIce, connectTimeoutMs);
  }

  function offer(opts) {
    var current = call.pc;
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
    var pc = call.pc;
    if (pc) {
      pc.onicecandidate = pc.ontrack = pc.onconnectionstatechange = pc.oniceconnectionstatechange = null;
      pc.close();
    }
    call.pc = null;
    call.pending = [];
    el.remoteVideo.srcObject = null;
  }

  function newPc() {
    closePc();
    var cfg = call.iceConfig;
    // No STUN/TURN configured: host candidates connect browsers on the same network only.
    var pc = (call.pc = new RTCPeerConnection({
      iceServers: cfg.iceServers,
      iceTransportPolicy: cfg.iceTransportPolicy,
    }));
    el.noPath.hidden = true;
    root.removeAttribute('data-no-path');
    call.connectTimer = setTimeout(noPath, connectTimeoutMs);
    var stream = page.state.localStream;
    if (stream) {
      stream.getTracks().forEach(function (t) {
        pc.addTrack(t, stream);
      });
    } else {
      pc.addTransceiver('video', { direction: 'recvonly' });
      pc.addTransceiver('audio', { direction: 'recvonly' });
    }
    pc.ontrack = function (e) {
      if (e.streams && e.streams[0]) el.remoteVideo.srcObject = e.streams[0];
    };
    pc.onicecandidate = function (e) {
      if (e.candidate) send({ type: 'candidate', candidate: e.candidate.toJSON() });
    };
    pc.onconnectionstatechange = onConnectionState;
    root.setAttribute('data-connection-state', 'new');
    return pc;
  }

  function onConnectionState() {
    var state = call.pc.connectionState;
    if (state === 'connected') {
      clearTimers();
      call.restarts = 0;
      showReconnecting(false);
      send({ type: 'connected' });
      showPath();
    } else if (state === 'failed') {
      return restartIce();
    } else if (state === 'disconnected' && !call.disconnectTimer) {
      // Often back by itself within a few seconds (a brief loss); else restart ICE.
      call.disconnectTimer = setTimeout(function () {
        call.disconnectTimer = null;
        if (call.pc && call.pc.connectionState === 'disconnected') restartIce();
      }, 3000);
      showReconnecting(true);
    }
    if (root.getAttribute('data-no-path') !== '1') {
      root.setAttribute('data-connection-state', state);
      // While a socket is down the status line keeps saying whose connection dropped.
      if (call.wsUp && !call.peerAway) page.status(describe(state));
    }
  }

  function flush() {
    var list = call.pending;
    call.pending = [];
    list.forEach(function (c) {
      call.pc.addIceCandidate(c).catch(function () {});
    });
  }

  /** What the server and the other page send, by `type`. */
  var onSignal = signalHandlers();
  function signalHandlers() {
    return {
      ice: function (msg) {
        call.iceConfig = { iceServers: msg.iceServers || [], iceTransportPolicy: msg.iceTransportPolicy || 'all' };
      },
      restart: function () {
        // The other side lost the connection: show it here too; the offerer restarts ICE.
        showReconnecting(true);
        if (call.offerer && call.pc) offer({ iceRestart: true });
      },
      connected: function () {
        if (call.pc && call.pc.connectionState === 'connected') showReconnecting(false);
      },
      waiting: function () {
        // Alone in the room (back after a drop, the other gone or away): a call kept from before is over.
        if (call.pc) {
          closePc();
          showReconnecting(false);
          root.setAttribute('data-connection-state', 'new');
        }
        page.status(w('waiting'));
      },
      'peer-away': function () {
        // Their signalling dropped: they are reconnecting (the server keeps them in the room meanwhile).
        call.peerAway = true;
        if (call.awayTimer) clearTimeout(call.awayTimer);
        call.awayTimer = setTimeout(function () {
          if (call.peerAway) onSignal['peer-left']();
        }, graceMs + 10000);
        clearTimers();
        showReconnecting(true);
        root.setAttribute('data-peer', 'away');
        page.status(w('otherAway'));
      },
      'media-state': function (msg) {
        page.showSigns('remote', { audio: msg.audio === true, video: msg.video === true });
      },
      start: function (msg) {
        if (call.awayTimer) clearTimeout(call.awayTimer);
        call.offerer = !!msg.offerer;
        call.restarts = 0;
        call.peerAway = false;
        root.removeAttribute('data-peer');
        newPc();
        announceMedia();
        page.status(w('otherHere'));
        if (call.offerer) offer();
      },
      offer: function (msg) {
        if (!call.pc) newPc();
        call.pc
          .setRemoteDescription(msg.sdp)
          .then(function () {
            flush();
            return call.pc.createAnswer();
          })
          .then(function (answer) {
            return call.pc.setLocalDescription(answer);
          })
          .then(function () {
            send({ type: 'answer', sdp: call.pc.localDescription.toJSON() });
          });
      },
      answer: function (msg) {
        if (call.pc) call.pc.setRemoteDescription(msg.sdp).then(flush);
      },
      candidate: function (msg) {
        if (!call.pc) return;
        if (call.pc.remoteDescription) call.pc.addIceCandidate(msg.candidate).catch(function () {});
        else call.pending.push(msg.candidate);
      },
      'peer-left': function () {
        if (call.awayTimer) clearTimeout(call.awayTimer);
        call.peerAway = false;
        root.setAttribute('data-peer', 'left');
        closePc();
        showReconnecting(false);
        el.path.hidden = true;
        root.setAttribute('data-connection-state', 'new');
        page.status(w('otherLeft'));
      },
      clock: function (msg) {
        page.applyClock(msg);
      },
      'room-closed': function () {
        page.finish(w('ended'));
      },
    };
  }

  function onMessage(ev) {
    var msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    var handle = msg && Object.prototype.hasOwnProperty.call(onSignal, msg.type) ? onSignal[msg.type] : null;
    if (handle) handle(msg);
  }

  /**
   * The signalling socket. When it drops (network lost or changed, tab woken from sleep, an API
   * replica restarting) it is opened again with a growing pause (0.5 s doubling to 10 s, jittered;
   * at once when the browser says it is back online). The peer connection is kept meanwhile (media
   * may still flow); the server keeps this person in the room for ROOM_RECONNECT_GRACE_MS and, once
   * both sockets are back, sends `start`: a fresh call on both sides, the same interview and clock.
   */
  function connect() {
    if (page.state.ended) return;
    if (call.reconnectTimer) clearTimeout(call.reconnectTimer);
    call.reconnectTimer = null;
    var url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + signalPath;
    var socket = new WebSocket(url);
    call.ws = socket;
    socket.onopen = function () {
      call.retry = 0;
      call.wsUp = true;
      root.removeAttribute('data-signal');
    };
    socket.onmessage = onMessage;
    socket.onclose = function (ev) {
      if (socket === call.ws) onSocketClosed(ev);
    };
  }

  function onSocketClosed(ev) {
    call.wsUp = false;
    if (page.state.ended) return;
    if (ev.code === 4000) {
      // This person opened the room again elsewhere: the call continues there.
      closePc();
      return page.status(w('replaced'));
    }
    clearTimers();
    showReconnecting(true);
    root.setAttribute('data-signal', 'reconnecting');
    page.status(w('signalLost'));
    var pause = Math.min(10000, 500 * Math.pow(2, call.retry));
    call.retry = Math.min(call.retry + 1, 5);
    call.reconnectTimer = setTimeout(connect, pause * (0.5 + Math.random() / 2));
  }

  function listenToNetwork() {
    // Back online: try at once instead of waiting out the pause. Gone offline: the socket is dead
    // even if the browser has not noticed yet, so close it and start reconnecting.
    window.addEventListener('online', function () {
      if (call.reconnectTimer && !page.state.ended) connect();
    });
    window.addEventListener('offline', function () {
      if (call.ws && call.ws.readyState === WebSocket.OPEN) call.ws.close();
    });
    // Leaving the page (step out, reload, closing the tab) is leaving the room: say so, so the other
    // side is told at once instead of after the reconnection grace.
    window.addEventListener('pagehide', function () {
      send({ type: 'bye' });
    });
  }

  /** The off-signs on the tiles: mine from my tracks, theirs from their `media-state` message. */
  function mediaState() {
    var stream = page.state.localStream;
    if (!stream) return { audio: false, video: false };
    var a = stream.getAudioTracks();
    var v = stream.getVideoTracks();
    return { audio: a.length > 0 && a[0].enabled, video: v.length > 0 && v[0].enabled };
  }
  function announceMedia() {
    var s = mediaState();
    page.showSigns('local', s);
    send({ type: 'media-state', audio: s.audio, video: s.video });
  }

  listenToNetwork();
  page.start();
})();

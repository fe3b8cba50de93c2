// Job Fair interview room on LiveKit (VIDEO_PROVIDER=livekit): the same page as the built-in room
// (room-page.js: pre-join check, tiles with names, mute and camera signs, the interview clock), but
// the call goes through a LiveKit server (an SFU) with livekit-client (served from our node_modules
// as /static/livekit-client.js). The page asks our API for its LiveKit URL and participant token;
// LiveKit tells our API who is in the room (webhooks), which starts the clock.
(function () {
  'use strict';
  if (!document.getElementById('room') || !window.LivekitClient || !window.JobFairRoomPage) return;
  var LK = window.LivekitClient;
  var room = null;
  var page = window.JobFairRoomPage.open({
    start: function () {
      var stream = page.state.localStream;
      if (stream)
        page.showSigns('local', {
          audio: stream.getAudioTracks().length > 0,
          video: stream.getVideoTracks().length > 0,
        });
      join();
    },
    setMedia: setMedia,
    retry: function () {
      if (room) room.disconnect().catch(function () {});
      room = null;
      join();
    },
    hangUp: disconnect,
    leave: disconnect,
  });
  var root = page.root;
  var el = page.el;
  var joinPath = root.getAttribute('data-join-path');
  var clockPath = joinPath ? joinPath.replace(/\/livekit\?/, '/clock.json?') : '';

  // For people and for tests: the live LiveKit Room, and what this page has decoded from the other side.
  window.jobfairRoom = {
    get room() {
      return room;
    },
    /** Video frames and audio samples decoded from the other person (inbound-rtp stats). */
    received: received,
  };

  function received() {
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
  }

  function disconnect() {
    if (room) room.disconnect().catch(function () {});
  }

  function connectionState(state) {
    root.setAttribute('data-connection-state', state);
  }

  function showReconnecting(on) {
    el.reconnecting.hidden = !on;
    if (on) el.path.hidden = true;
    if (on) root.setAttribute('data-reconnecting', '1');
    else root.removeAttribute('data-reconnecting');
  }

  /** The video server could not be reached (or refused the token): say so and what to try. */
  function noPath() {
    showReconnecting(false);
    connectionState('failed');
    root.setAttribute('data-no-path', '1');
    el.path.hidden = true;
    el.noPath.hidden = false;
    page.status('No connection.');
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
    if (present) page.showSigns('remote', { audio: audio, video: video });
  }

  function otherHere() {
    page.status('The other person is here. You are in the interview.');
    remoteSigns();
    askClock();
  }

  // The clock comes as a LiveKit data message from our API when both are in; a page that joined
  // just then may miss it, so while the other person is here and the clock unknown, ask.
  var clockAsking = null;
  function askClock() {
    if (page.state.startedAt || clockAsking || !clockPath) return;
    var tries = 0;
    clockAsking = setInterval(function () {
      if (page.state.ended || page.state.startedAt || ++tries > 40 || !room || room.remoteParticipants.size === 0) {
        clearInterval(clockAsking);
        clockAsking = null;
        return;
      }
      fetch(clockPath, { headers: { accept: 'application/json' }, credentials: 'same-origin' })
        .then(function (r) {
          return r.ok ? r.json() : null;
        })
        .then(function (c) {
          if (c) page.applyClock(c);
          if (c) page.leaveIfOver(c.status);
        })
        .catch(function () {});
    }, 1000);
  }

  function attachRemote(track) {
    if (track.kind === LK.Track.Kind.Video || track.kind === LK.Track.Kind.Audio) track.attach(el.remoteVideo);
  }

  /** Our API's answer to "join": the LiveKit URL and this party's token (409: the room closed meanwhile). */
  function askToJoin() {
    return fetch(joinPath, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json', 'x-csrf-token': (window.JobFair && window.JobFair.csrf) || '' },
    }).then(function (r) {
      if (r.status === 409) {
        page.finish('The interview room is closed.');
        throw null;
      }
      if (!r.ok) throw new Error('join ' + r.status);
      return r.json();
    });
  }

  function join() {
    if (page.state.ended) return;
    el.noPath.hidden = true;
    root.removeAttribute('data-no-path');
    connectionState('connecting');
    page.status('Connecting…');
    askToJoin()
      .then(function (j) {
        if (j.started_at) page.applyClock(j);
        room = newRoom();
        return room.connect(j.url, j.token).then(onConnected);
      })
      .catch(function (err) {
        if (err === null || page.state.ended) return;
        noPath();
      });
  }

  /** A LiveKit Room with what this page does on each of its events. */
  function newRoom() {
    return new LK.Room({ adaptiveStream: false, dynacast: true })
      .on(LK.RoomEvent.TrackSubscribed, function (track) {
        attachRemote(track);
        remoteSigns();
      })
      .on(LK.RoomEvent.TrackUnsubscribed, function (track) {
        track.detach(el.remoteVideo);
      })
      .on(LK.RoomEvent.TrackMuted, remoteSigns)
      .on(LK.RoomEvent.TrackUnmuted, remoteSigns)
      .on(LK.RoomEvent.TrackPublished, remoteSigns)
      .on(LK.RoomEvent.ParticipantConnected, otherHere)
      .on(LK.RoomEvent.ParticipantDisconnected, function () {
        page.status('The other person left the room; waiting for them to come back…');
      })
      .on(LK.RoomEvent.Reconnecting, onReconnecting)
      .on(LK.RoomEvent.Reconnected, onReconnected)
      .on(LK.RoomEvent.DataReceived, onData)
      .on(LK.RoomEvent.Disconnected, onDisconnected);
  }

  function onReconnecting() {
    root.setAttribute('data-reconnects', String(Number(root.getAttribute('data-reconnects') || 0) + 1));
    showReconnecting(true);
    connectionState('reconnecting');
    page.status('Reconnecting…');
  }

  function onReconnected() {
    showReconnecting(false);
    connectionState('connected');
    page.showPath('server');
    page.status(
      room.remoteParticipants.size ? 'Connected. You are in the interview.' : 'Waiting for the other person to join…',
    );
  }

  function onData(payload, _participant, _kind, topic) {
    if (topic !== 'jobfair') return;
    try {
      var msg = JSON.parse(new TextDecoder().decode(payload));
      if (msg.type === 'clock') page.applyClock(msg);
    } catch (e) {
      /* not ours */
    }
  }

  function onDisconnected(reason) {
    if (page.state.ended) return;
    if (reason === LK.DisconnectReason.ROOM_DELETED) return page.finish('The interview has ended.');
    if (reason === LK.DisconnectReason.DUPLICATE_IDENTITY) {
      connectionState('replaced');
      return page.status('You opened this room in another tab or window; the call continues there.');
    }
    noPath();
  }

  /** In the room: publish the camera and microphone, show the other person if already there. */
  function onConnected() {
    connectionState('connected');
    page.showPath('server');
    var stream = page.state.localStream;
    var publishing = stream
      ? stream.getTracks().map(function (t) {
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
    else page.status('Waiting for the other person to join…');
    return Promise.all(publishing);
  }

  /** Camera and microphone on or off: the published track is muted (LiveKit tells the other side). */
  function setMedia(kind, enabled, tracks) {
    var stream = page.state.localStream;
    var source = kind === 'video' ? LK.Track.Source.Camera : LK.Track.Source.Microphone;
    var pub = room && room.localParticipant.getTrackPublication(source);
    if (pub && pub.track) (enabled ? pub.track.unmute() : pub.track.mute()).catch(function () {});
    else
      tracks.forEach(function (t) {
        t.enabled = enabled;
      });
    page.showSigns('local', {
      audio: kind === 'audio' ? enabled : stream.getAudioTracks().some(on),
      video: kind === 'video' ? enabled : stream.getVideoTracks().some(on),
    });
  }
  function on(t) {
    return t.enabled;
  }

  page.start();
})();

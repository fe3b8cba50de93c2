import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type Harness, type TestUser } from '../helpers/harness';
import { checkPage, createWebHarness, launchBrowser } from '../helpers/browser';
import { createJob, createLiveEvent, join, matchOf, matchesService } from '../matches/fixtures';

/**
 * The interview room's pre-join check in a real browser with Chromium's fake camera and
 * microphone (`--use-fake-device-for-media-stream`), the permission granted or refused per
 * context: preview, device pickers from enumerateDevices, a moving microphone level, the message
 * when the browser refuses, joining with the chosen devices; then the interview clock both see.
 */
describe('browser: interview room pre-check (camera, microphone, level) and the interview clock', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    ({ h, baseUrl } = await createWebHarness({
      MATCHMAKER_INTERVAL_MS: '50',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
    }));
    browser = await launchBrowser({ fakeDevices: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
  });

  const pageAs = async (u: TestUser, o: { allowMedia: boolean }): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(c);
    if (o.allowMedia) await c.grantPermissions(['camera', 'microphone'], { origin: baseUrl });
    const token = (await h.app.services.accounts.sessions.create(u.user.id, { ip: '127.0.0.1', userAgent: 'test' }))
      .token;
    await c.addCookies([{ name: 'jf_session', value: token, url: baseUrl }]);
    return c.newPage();
  };

  it(
    'previews, lists devices, shows the level, explains a refusal, joins with the chosen ' +
      'microphone; the clock starts when both are in',
    async () => {
      const rec = await h.recruiter();
      const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
      await createJob(h, { event });
      const seeker = await h.seeker();
      await join(h, seeker, event.slug);
      const match = await matchOf(h, seeker.user.id);
      const svc = matchesService(h);
      await svc.accept({ userId: seeker.user.id, matchId: match.id });
      await svc.accept({ userId: rec.user.id, matchId: match.id });
      const seekerRoom = (await svc.interviewRoomUrl({ userId: seeker.user.id, matchId: match.id })).roomUrl;
      const recRoom = (await svc.interviewRoomUrl({ userId: rec.user.id, matchId: match.id })).roomUrl;

      // The seeker allows camera and microphone: preview, both pickers filled, the level moves.
      const s = await pageAs(seeker, { allowMedia: true });
      await s.goto(seekerRoom);
      await s.locator('#precheck[data-precheck-state="ready"]').waitFor({ timeout: 15_000 });
      expect(await s.locator('#in-call').isHidden()).toBe(true);
      await eventually(
        async () => ((await s.evaluate('document.getElementById("preview-video").videoWidth')) as number) > 0,
        10_000,
      );
      const cameras = await s.locator('#camera-select option').allTextContents();
      const mics = await s
        .locator('#mic-select option')
        .evaluateAll((os) => os.map((o) => ({ value: o.getAttribute('value') ?? '', label: o.textContent ?? '' })));
      expect(cameras.length).toBeGreaterThanOrEqual(1);
      expect(cameras[0]).not.toBe('No camera found');
      expect(mics.length).toBeGreaterThanOrEqual(1);
      expect(await s.locator('#camera-select').isDisabled()).toBe(false);
      await eventually(async () => Number(await s.locator('#mic-level').getAttribute('data-peak')) > 0.01, 10_000);
      expect(await s.locator('#precheck-status').textContent()).toContain('Your camera and microphone work');
      await checkPage(s, 'room-precheck-ready');

      // Another microphone: the preview restarts with it, and the call will use it.
      const chosen = mics[mics.length - 1].value;
      await s.locator('#mic-select').selectOption(chosen);
      await eventually(
        async () =>
          (await s.evaluate(
            '(() => { const st = document.getElementById("preview-video").srcObject; const t = st && ' +
              'st.getAudioTracks()[0]; return t ? t.getSettings().deviceId : null; })()',
          )) === chosen,
        10_000,
      );
      await s.locator('#precheck[data-precheck-state="ready"]').waitFor();
      expect(await s.locator('#mic-select').inputValue()).toBe(chosen);

      // The recruiter's browser refuses the camera and microphone: a clear message, and joining still works.
      const r = await pageAs(rec, { allowMedia: false });
      await r.goto(recRoom);
      await r.locator('#precheck[data-precheck-state="denied"]').waitFor({ timeout: 15_000 });
      expect(await r.locator('#precheck-status').textContent()).toMatch(
        /blocked the camera and microphone.*join without them/,
      );
      expect(await r.locator('#camera-select').isDisabled()).toBe(true);
      await checkPage(r, 'room-precheck-denied');

      // Before both are in, there is no interview clock.
      await s.getByRole('button', { name: 'Join the interview' }).click();
      await s.locator('#in-call').waitFor({ state: 'visible' });
      expect(await s.locator('#room-clock').getAttribute('data-clock-state')).toBe('waiting');
      expect(await s.locator('#room-elapsed').textContent()).toBe('not started');
      await s.locator('#room-status-text', { hasText: 'Waiting for the other person' }).waitFor({ timeout: 10_000 });
      expect((await h.knex('matches').where({ id: match.id }).first()).interview_started_at).toBeNull();

      await r.getByRole('button', { name: 'Join the interview' }).click();
      await r.locator('#room-status-text', { hasText: /./ }).waitFor();
      expect(await r.locator('#toggle-camera').isDisabled()).toBe(true);

      // Both in: the call connects with the chosen microphone; the clock runs on both pages.
      for (const p of [s, r]) await p.locator('#room[data-connection-state="connected"]').waitFor({ timeout: 30_000 });
      const sent = await s.evaluate(
        'window.jobfairRoom.pc.getSenders().filter((x) => x.track && x.track.kind === ' +
          '"audio").map((x) => x.track.getSettings().deviceId)',
      );
      expect(sent).toEqual([chosen]);
      for (const p of [s, r]) {
        await p.locator('#room-clock[data-clock-state="running"]').waitFor({ timeout: 15_000 });
        await eventually(async () => /^\d+:\d\d$/.test((await p.locator('#room-elapsed').textContent()) ?? ''), 5_000);
        expect(await p.locator('#room-timer').textContent()).toMatch(/^\d+:\d\d$/);
      }
      const row = await h.knex('matches').where({ id: match.id }).first();
      expect(row.interview_started_at).not.toBeNull();
      expect(row.interview_ends_at.getTime() - row.interview_started_at.getTime()).toBe(600000);
      await checkPage(s, 'room-with-clock');
      await checkPage(r, 'room-with-clock-no-devices');
    },
  );
});

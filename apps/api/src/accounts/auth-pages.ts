import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { SessionsService } from './sessions-service';
import { AppError } from '#lib/errors';
import {
  SESSION_COOKIE,
  currentUser,
  formBody,
  homeFor,
  parseCookies,
  safeNext,
  setCookie,
  str,
  type FormBody,
} from '../web/core';
import { html } from '../web/html';
import { errorSummary, fieldErrors, input, notice, postForm, radios, sendPage, type FieldErrors } from '../web/layout';
import { SIGNIN_LABELS, SIGNUP_LABELS } from '../web/messages';
import { recruiterProfileForm, seekerProfileForm, type ProfileForm } from './profile-forms';

/** Form fields → the shapes of the API's zod schemas (the schemas do the validating). */
export function seekerFormToInput(b: FormBody) {
  const years = str(b, 'experience_years').trim();
  const summary = str(b, 'summary').trim();
  const location = str(b, 'location').trim();
  const remote = str(b, 'remote_preference');
  // "65,000" and "65 000" are how people write salaries; an empty field clears it.
  const salary = str(b, 'salary_expectation').replace(/[\s,.']/g, '');
  return {
    full_name: str(b, 'full_name'),
    title: str(b, 'title'),
    summary: summary ? summary : null,
    skills: str(b, 'skills')
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter(Boolean),
    experience_years: /^-?\d+$/.test(years) ? Number(years) : years === '' ? undefined : years,
    location: location ? location : null,
    remote_preference: remote ? remote : null,
    salary_expectation: /^-?\d+$/.test(salary) ? Number(salary) : salary === '' ? null : salary,
  };
}

const authPages: FastifyPluginAsync<{ sessions: SessionsService }> = async (app, opts) => {
  const accounts = app.services.accounts.users;
  const profiles = app.services.accounts.profiles;
  const { sessions } = opts;

  const startSession = async (request: FastifyRequest, reply: FastifyReply, userId: string) => {
    // A fresh token on every sign-in (no session fixation); the old one, if any, is dropped.
    await sessions.destroy(parseCookies(request.headers.cookie)[SESSION_COOKIE]);
    const { token } = await sessions.create(userId, {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? null,
    });
    setCookie(request, reply, SESSION_COOKIE, token, sessions.ttlMs / 1000);
  };

  // ---------- sign-up ----------
  const signupPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    values: FormBody,
    errors: FieldErrors | null,
    next: string,
    status = errors ? 400 : 200,
  ) =>
    sendPage(request, reply, {
      title: 'Create your account',
      narrow: true,
      status,
      body: html`<h1>Create your account</h1>
${errorSummary(errors, SIGNUP_LABELS)}
${postForm(
  request,
  '/signup',
  html`<input type="hidden" name="next" value="${next}">
${input({
  name: 'display_name',
  label: SIGNUP_LABELS.display_name,
  value: str(values, 'display_name'),
  errors,
  required: true,
  autocomplete: 'name',
})}
${input({
  name: 'email',
  label: SIGNUP_LABELS.email,
  type: 'email',
  value: str(values, 'email'),
  errors,
  required: true,
  autocomplete: 'email',
})}
${input({
  name: 'password',
  label: SIGNUP_LABELS.password,
  type: 'password',
  errors,
  required: true,
  autocomplete: 'new-password',
  hint: 'At least 10 characters.',
})}
${radios({
  name: 'role',
  label: SIGNUP_LABELS.role,
  value: str(values, 'role') || 'seeker',
  errors,
  options: [
    ['seeker', 'Job seeker', 'looking for a job: join event queues and interview live'],
    ['recruiter', 'Recruiter', 'run live events for your team and interview candidates'],
  ],
})}
<button type="submit" class="btn btn-primary">Create account</button>`,
  { label: 'Sign up' },
)}
<p>Already registered? <a href="/login${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}">Sign in</a>.</p>`,
    });

  app.get<{ Querystring: { next?: string } }>('/signup', async (request, reply) => {
    if (request.webSession) return reply.redirect(homeFor(request.webSession.user), 303);
    return signupPage(request, reply, {}, null, safeNext(request.query.next));
  });

  // Sign-up never says whether the address is registered (decision 0182): every valid form gets the
  // same "check your inbox" page; the e-mail either carries the link that creates the account or
  // tells the owner they already have one.
  app.post('/signup', async (request, reply) => {
    const b = formBody(request);
    const next = safeNext(str(b, 'next'));
    try {
      await accounts.requestSignUp(
        {
          display_name: str(b, 'display_name'),
          email: str(b, 'email'),
          password: str(b, 'password'),
          role: str(b, 'role') || undefined,
        },
        next,
        request.ip,
      );
    } catch (err) {
      if (err instanceof AppError && err.code === 'RATE_LIMITED') {
        const secs = (err.details as { retry_after_seconds: number }).retry_after_seconds;
        reply.header('retry-after', String(secs));
        return signupPage(
          request,
          reply,
          b,
          { form: `Too many sign-ups from your network. Try again in ${secs} seconds.` },
          next,
          429,
        );
      }
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return signupPage(request, reply, b, errors, next);
    }
    return reply.redirect('/signup/sent', 303);
  });

  app.get('/signup/sent', async (request, reply) =>
    sendPage(request, reply, {
      title: 'Check your inbox',
      narrow: true,
      body: html`<h1>Check your inbox</h1>
<p class="lead">We sent an e-mail to the address you entered. Open the link in it to finish creating your account; it is valid for 24 hours.</p>
<p>If that address already has an account, the e-mail says so instead — then <a href="/login">sign in</a>.</p>
<p>Nothing arrived? Check your spam folder, or <a href="/signup">sign up again</a>.</p>`,
    }),
  );

  const confirmPage = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const preview = await accounts.previewSignUp(request.params.token);
    if (!preview) {
      return sendPage(request, reply, {
        title: 'Link not valid',
        narrow: true,
        status: 404,
        body: html`<h1>This link is not valid</h1>
<p class="lead">It was already used, it expired, or it was mistyped.</p>
<p class="actions"><a class="btn btn-primary" href="/login">Sign in</a> <a class="btn" href="/signup">Sign up again</a></p>`,
      });
    }
    const here = `/signup/confirm/${request.params.token}`;
    return sendPage(request, reply, {
      title: 'Finish creating your account',
      narrow: true,
      body: html`<h1>Finish creating your account</h1>
<p class="lead">For <strong>${preview.email}</strong> (${preview.display_name}).</p>
${postForm(request, here, html`<button type="submit" class="btn btn-primary">Create account</button>`, { label: 'Finish sign-up' })}`,
    });
  };

  // The token is in the path (as for invites): the site's Referrer-Policy keeps it off other sites.
  app.get<{ Params: { token: string } }>('/signup/confirm/:token', confirmPage);

  // A GET never creates the account (mail scanners open links); the button's POST does.
  app.post<{ Params: { token: string } }>('/signup/confirm/:token', async (request, reply) => {
    const done = await accounts.confirmSignUp(request.params.token);
    if (!done) return confirmPage(request, reply);
    await startSession(request, reply, done.user.id);
    // An invitee joins the team first; onboarding then knows the team.
    if (done.next.startsWith('/invites/')) return reply.redirect(done.next, 303);
    return reply.redirect(`/onboarding${done.next !== '/' ? `?next=${encodeURIComponent(done.next)}` : ''}`, 303);
  });

  // ---------- sign-in ----------
  const loginPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    values: FormBody,
    errors: FieldErrors | null,
    next: string,
    status = 200,
  ) =>
    sendPage(request, reply, {
      title: 'Sign in',
      narrow: true,
      status: errors ? status : 200,
      body: html`<h1>Sign in</h1>
${notice(request)}
${errorSummary(errors, { email: 'E-mail address', password: 'Password' })}
${postForm(
  request,
  '/login',
  html`<input type="hidden" name="next" value="${next}">
${input({
  name: 'email',
  label: SIGNIN_LABELS.email,
  type: 'email',
  value: str(values, 'email'),
  errors,
  required: true,
  autocomplete: 'username',
})}
${input({
  name: 'password',
  label: SIGNIN_LABELS.password,
  type: 'password',
  errors,
  required: true,
  autocomplete: 'current-password',
})}
<button type="submit" class="btn btn-primary">Sign in</button>`,
  { label: 'Sign in' },
)}
<p>New here? <a href="/signup${next !== '/' ? `?next=${encodeURIComponent(next)}` : ''}">Create an account</a>.</p>`,
    });

  app.get<{ Querystring: { next?: string } }>('/login', async (request, reply) => {
    if (request.webSession) return reply.redirect(safeNext(request.query.next, homeFor(request.webSession.user)), 303);
    return loginPage(request, reply, {}, null, safeNext(request.query.next));
  });

  app.post('/login', async (request, reply) => {
    const b = formBody(request);
    const next = safeNext(str(b, 'next'), '');
    try {
      const user = await accounts.signIn({ email: str(b, 'email'), password: str(b, 'password') }, request.ip);
      await startSession(request, reply, user.id);
      const target =
        !user.onboarding_completed_at && !next.startsWith('/invites/')
          ? `/onboarding${next ? `?next=${encodeURIComponent(next)}` : ''}`
          : next || homeFor(user);
      return reply.redirect(target, 303);
    } catch (err) {
      if (err instanceof AppError && err.code === 'RATE_LIMITED') {
        reply.header('retry-after', String((err.details as { retry_after_seconds: number }).retry_after_seconds));
        const secs = (err.details as { retry_after_seconds: number }).retry_after_seconds;
        return loginPage(
          request,
          reply,
          b,
          { form: `Too many sign-in attempts. Try again in ${secs} seconds.` },
          next || '/',
          429,
        );
      }
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return loginPage(request, reply, b, errors, next || '/', 400);
    }
  });

  app.post('/logout', async (request, reply) => {
    await sessions.destroy(parseCookies(request.headers.cookie)[SESSION_COOKIE]);
    setCookie(request, reply, SESSION_COOKIE, '', 0);
    return reply.redirect('/login?done=signed-out', 303);
  });

  // ---------- onboarding ----------
  /** Onboarding and, once onboarded, the Profile page (/account/profile): the same form and rules. */
  const onboardingPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: FormBody | null,
    errors: FieldErrors | null,
    next: string,
    mode: 'onboarding' | 'profile' = 'onboarding',
  ) => {
    const action = mode === 'profile' ? '/account/profile' : '/onboarding';
    const { user, membership } = currentUser(request);
    const existing = await profiles.get(user.id);
    const v = (k: string, fallback: string | number | null | undefined = ''): string =>
      values ? str(values, k) : String(fallback ?? '');
    const common = html`<input type="hidden" name="next" value="${next}">`;
    const form: ProfileForm = { request, action, mode, errors, existing, user, membership, value: v, hidden: common };
    const body = user.role === 'seeker' ? seekerProfileForm(form) : recruiterProfileForm(form);
    return sendPage(request, reply, {
      title: mode === 'profile' ? 'Profile' : 'Onboarding',
      narrow: true,
      status: errors ? 400 : 200,
      body,
    });
  };

  app.get<{ Querystring: { next?: string } }>('/onboarding', async (request, reply) => {
    currentUser(request);
    return onboardingPage(request, reply, null, null, safeNext(request.query.next, ''));
  });

  app.get('/account/profile', async (request, reply) => {
    const { user } = currentUser(request);
    if (!user.onboarding_completed_at) return reply.redirect('/onboarding?next=%2Faccount%2Fprofile', 303);
    return onboardingPage(request, reply, null, null, '', 'profile');
  });

  const saveProfile = (mode: 'onboarding' | 'profile') => async (request: FastifyRequest, reply: FastifyReply) => {
    const { user, membership } = currentUser(request);
    const b = formBody(request);
    const next = mode === 'profile' ? '/account/profile?done=profile-saved' : safeNext(str(b, 'next'), '');
    try {
      if (user.role === 'seeker') await accounts.onboardSeeker(user.id, seekerFormToInput(b));
      else
        await accounts.onboardRecruiter(user.id, {
          full_name: str(b, 'full_name'),
          ...(str(b, 'title').trim() ? { title: str(b, 'title') } : {}),
          ...(membership ? {} : { team_name: str(b, 'team_name') }),
        });
    } catch (err) {
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return onboardingPage(request, reply, b, errors, mode === 'profile' ? '' : next, mode);
    }
    return reply.redirect(next || (user.role === 'recruiter' ? '/recruiter' : '/'), 303);
  };
  app.post('/onboarding', saveProfile('onboarding'));
  app.post('/account/profile', saveProfile('profile'));
};

export default authPages;

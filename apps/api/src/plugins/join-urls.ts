/** join_url of a live event: the page a human opens to see the event and join its queue. */
export const eventJoinUrl = (baseUrl: string, slug: string) => `${baseUrl}/events/${encodeURIComponent(slug)}`;

/** join_url of a queue entry: its event's page, or the "any event" queue page. */
export const queueJoinUrl = (baseUrl: string, slug: string | null) =>
  slug ? eventJoinUrl(baseUrl, slug) : `${baseUrl}/queue`;

/** details_url of a match: the web page where the person views it and accepts or declines it. */
export const matchDetailsUrl = (baseUrl: string, matchId: string) => `${baseUrl}/matches/${matchId}`;

import { detailLines, temporalName } from './contract';

describe('start summaries', () => {
  it('never lets an e-mail address through, and falls back when nothing else is left', () => {
    expect(temporalName('Ada Lovelace', 'a seeker')).toBe('Ada Lovelace');
    expect(temporalName('  ada.seeker@demo.jobfair.local ', 'a seeker')).toBe('a seeker');
    expect(temporalName('Ada <ada@example.com>', 'a seeker')).toBe('Ada <[e-mail hidden]>');
    expect(temporalName(null, 'a seeker')).toBe('a seeker');
    expect(temporalName('x'.repeat(200), 'a seeker')).toHaveLength(80);
    expect(
      detailLines([
        ['Seeker', 'bob@example.org'],
        ['Skipped', null],
        ['Job', 'Compiler Engineer'],
      ]),
    ).toBe('Seeker: [e-mail hidden]  \nJob: Compiler Engineer');
  });
});

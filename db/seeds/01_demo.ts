import type { Knex } from 'knex';
import { seedDemoData } from '../demo-data';

export async function seed(knex: Knex): Promise<void> {
  const demo = await seedDemoData(knex);
  // eslint-disable-next-line no-console
  console.log(`demo seeker ${demo.seekerEmail} token: ${demo.seekerToken}\ndemo recruiter ${demo.recruiterEmail} token: ${demo.recruiterToken}`);
}

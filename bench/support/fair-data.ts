/** The benches' fair data: a skewed skill vocabulary (40 common skills, then rare `skill-N`) and cities. */
export const SKILLS = Array.from({ length: 200 }, (_, i) =>
  i < 40
    ? [
        'TypeScript',
        'JavaScript',
        'Python',
        'Go',
        'Rust',
        'Java',
        'Kotlin',
        'Swift',
        'C#',
        'C++',
        'PostgreSQL',
        'MySQL',
        'Redis',
        'Kafka',
        'Temporal',
        'React',
        'Vue',
        'Angular',
        'Node.js',
        'Django',
        'Flask',
        'Spring',
        'Kubernetes',
        'Docker',
        'Terraform',
        'AWS',
        'GCP',
        'Azure',
        'GraphQL',
        'gRPC',
        'Elixir',
        'Scala',
        'Ruby',
        'Rails',
        'PHP',
        'Laravel',
        'Figma',
        'SQL',
        'Spark',
        'Airflow',
      ][i]
    : `skill-${i}`,
);

/**
 * Spellings people type for some common skills, each a listed alias of the skill vocabulary
 * (domain/matchmaking/skill-vocabulary.json), so seeded jobs and profiles go through resolution.
 */
const TYPED: Record<string, [string, string]> = {
  TypeScript: ['ts', 'typescript'],
  JavaScript: ['JS', 'javascript'],
  Python: ['python3', 'python'],
  Go: ['golang', 'Golang'],
  'C#': ['c#', 'C Sharp'],
  'C++': ['c++', 'cpp'],
  PostgreSQL: ['postgres', 'Postgres'],
  React: ['ReactJS', 'react.js'],
  Vue: ['Vue.js', 'vuejs'],
  'Node.js': ['nodejs', 'node'],
  Kubernetes: ['k8s', 'K8s'],
  Terraform: ['terraform', 'TERRAFORM'],
  AWS: ['aws', 'Amazon AWS'],
  GCP: ['Google Cloud Platform', 'gcp'],
  GraphQL: ['gql', 'graphql'],
  Rails: ['Ruby on Rails', 'RoR'],
};

/** Spellings per skill in TYPED_SKILLS. */
export const SPELLINGS_PER_SKILL = 4;

/**
 * SKILLS as typed: skill i at [4i, 4i + 3], its label twice and two typed forms (the label again
 * when it has none), so about half the mentions of those skills are written as people type them.
 * A seed draws skill i, then one of its four spellings: the canonical skills keep SKILLS' frequencies.
 */
export const TYPED_SKILLS: string[] = SKILLS.flatMap((s) => [s, s, ...(TYPED[s] ?? [s, s])]);

/**
 * The SQL of one typed skill drawn from TYPED_SKILLS (bound as one `?::text[]` parameter): `draw` is
 * an expression in [0, 1) that picks the skill (`power(random(), 2)` for the skewed draw).
 */
export const typedSkillSql = (draw: string): string =>
  `(?::text[])[1 + ${SPELLINGS_PER_SKILL} * floor(${draw} * ${SKILLS.length})::int + floor(random() * ${SPELLINGS_PER_SKILL})::int]`;

export const CITIES = [
  'Berlin',
  'London',
  'Paris',
  'Amsterdam',
  'Lisbon',
  'Madrid',
  'Warsaw',
  'Prague',
  'Vienna',
  'Zurich',
  'Dublin',
  'Stockholm',
  'Oslo',
  'Helsinki',
  'Copenhagen',
  'New York',
  'Boston',
  'Austin',
  'Seattle',
  'Toronto',
  'Remote EU',
  'Remote US',
  'Singapore',
  'Tokyo',
  'Sydney',
  'São Paulo',
  'Bangalore',
  'Cape Town',
  'Tel Aviv',
  'Munich',
];

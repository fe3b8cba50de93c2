/**
 * The demo fair of `npm start`: three companies, each with a live open-invite event, realistic
 * jobs and recruiters; the demo seeker and recruiter a newcomer logs in as; simulated seekers whose
 * agents join over time. Pure data, read by the seed (apps/demo/src/demo-data.ts) and the simulator.
 * Recruiter availability (decision 0123) is seeded per event: who takes interviews and how many at
 * once, so the demo's offers name a recruiter and respect their capacity.
 */
type Remote = 'remote' | 'hybrid' | 'onsite';
export interface DemoJob {
  title: string;
  essential: string[];
  bonus: string[];
  experienceMin: number;
  salary: [number, number];
  location: string;
  remote: Remote;
}
export interface DemoCompany {
  team: string;
  slug: string;
  headline: string;
  description: string;
  accent: string;
  slots: number;
  /** The team's owner; the first company's is the demo recruiter, a real person (no simulation). */
  owner: DemoPerson;
  /** A simulated colleague who accepts the team's matches. */
  simulatedRecruiter: DemoPerson;
  /** Their availability at the event (recruiter_availability): the matchmaker offers only to available ones, up to their capacity. */
  availability: { owner: DemoAvailability; simulatedRecruiter: DemoAvailability };
  jobs: DemoJob[];
}
export interface DemoAvailability {
  available: boolean;
  capacity: number;
}
export interface DemoPerson {
  name: string;
  email: string;
  title: string;
}
export interface DemoSeeker extends DemoPerson {
  summary: string;
  skills: string[];
  years: number;
  location: string;
  remote: 'onsite' | 'hybrid' | 'fully_remote';
}

export const DEMO_PASSWORD = 'demo-password-123';
export const DEMO_AGENT_IDENTITY = 'demo-agent/1.0 (npm start simulator)';

export const DEMO_SEEKER: DemoSeeker = {
  name: 'Ada Lovelace',
  email: 'ada.seeker@demo.jobfair.local',
  title: 'Senior TypeScript Engineer',
  summary: 'Builds durable workflows and APIs.',
  skills: ['TypeScript', 'Node.js', 'PostgreSQL', 'Temporal'],
  years: 8,
  location: 'London',
  remote: 'hybrid',
};

const person = (name: string, title: string, domain = 'demo.jobfair.local'): DemoPerson => ({
  name,
  title,
  email: `${name
    .toLowerCase()
    .normalize('NFD')
    .replace(/[^a-z ]/g, '')
    .split(' ')
    .join('.')}@${domain}`,
});

export const DEMO_COMPANIES: DemoCompany[] = [
  {
    team: 'Acme Compilers',
    slug: 'acme-compilers-hiring-day',
    headline: 'Acme Compilers hiring day: build the tools developers use',
    description: 'Compilers, language servers and the platform behind them. Interviews today, offers this week.',
    accent: '#5b21b6',
    slots: 3,
    owner: { name: 'Grace Hopper', email: 'grace.recruiter@demo.jobfair.local', title: 'Head of Talent' },
    simulatedRecruiter: person('Margaret Hamilton', 'Engineering Recruiter', 'sim.demo.jobfair.local'),
    availability: { owner: { available: true, capacity: 1 }, simulatedRecruiter: { available: true, capacity: 2 } },
    jobs: [
      {
        title: 'Senior TypeScript Engineer (Developer Platform)',
        essential: ['TypeScript', 'Node.js'],
        bonus: ['Temporal', 'PostgreSQL'],
        experienceMin: 5,
        salary: [85000, 110000],
        location: 'London',
        remote: 'hybrid',
      },
      {
        title: 'Backend Engineer (Build Service)',
        essential: ['Go', 'PostgreSQL'],
        bonus: ['Kubernetes', 'gRPC'],
        experienceMin: 3,
        salary: [70000, 90000],
        location: 'London',
        remote: 'hybrid',
      },
      {
        title: 'Compiler Engineer',
        essential: ['Rust', 'LLVM'],
        bonus: ['C++', 'WebAssembly'],
        experienceMin: 4,
        salary: [90000, 125000],
        location: 'Cambridge',
        remote: 'onsite',
      },
      {
        title: 'Staff Engineer (Language Server)',
        essential: ['TypeScript', 'Compilers'],
        bonus: ['Rust', 'VS Code'],
        experienceMin: 8,
        salary: [120000, 150000],
        location: 'Remote (UK)',
        remote: 'remote',
      },
      {
        title: 'Site Reliability Engineer',
        essential: ['Kubernetes', 'Terraform'],
        bonus: ['Go', 'Prometheus'],
        experienceMin: 3,
        salary: [75000, 95000],
        location: 'London',
        remote: 'hybrid',
      },
      {
        title: 'Developer Advocate',
        essential: ['TypeScript', 'Public speaking'],
        bonus: ['Node.js', 'Technical writing'],
        experienceMin: 2,
        salary: [60000, 80000],
        location: 'Remote (Europe)',
        remote: 'remote',
      },
    ],
  },
  {
    team: 'Northwind Logistics',
    slug: 'northwind-platform-fair',
    headline: 'Northwind platform fair: route a million parcels a day',
    description: 'Event-driven systems for warehouses and fleets across Europe.',
    accent: '#0f766e',
    slots: 2,
    owner: person('Katherine Johnson', 'Talent Partner', 'sim.demo.jobfair.local'),
    simulatedRecruiter: person('Dorothy Vaughan', 'Technical Recruiter', 'sim.demo.jobfair.local'),
    // Katherine is not taking interviews today: every Northwind offer goes to Dorothy.
    availability: { owner: { available: false, capacity: 1 }, simulatedRecruiter: { available: true, capacity: 2 } },
    jobs: [
      {
        title: 'Platform Engineer (Event Streaming)',
        essential: ['Kafka', 'Java'],
        bonus: ['Kubernetes', 'PostgreSQL'],
        experienceMin: 4,
        salary: [65000, 85000],
        location: 'Amsterdam',
        remote: 'hybrid',
      },
      {
        title: 'Senior Node.js Engineer (Routing API)',
        essential: ['Node.js', 'TypeScript', 'PostgreSQL'],
        bonus: ['Redis', 'Temporal'],
        experienceMin: 5,
        salary: [75000, 95000],
        location: 'Amsterdam',
        remote: 'hybrid',
      },
      {
        title: 'Data Engineer',
        essential: ['Python', 'SQL'],
        bonus: ['Airflow', 'dbt'],
        experienceMin: 3,
        salary: [60000, 80000],
        location: 'Rotterdam',
        remote: 'onsite',
      },
      {
        title: 'Mobile Engineer (Driver App)',
        essential: ['Kotlin', 'Android'],
        bonus: ['Swift', 'GraphQL'],
        experienceMin: 3,
        salary: [55000, 75000],
        location: 'Remote (EU)',
        remote: 'remote',
      },
      {
        title: 'Engineering Manager (Fleet)',
        essential: ['People management', 'Java'],
        bonus: ['Kafka'],
        experienceMin: 8,
        salary: [95000, 120000],
        location: 'Amsterdam',
        remote: 'hybrid',
      },
      {
        title: 'QA Automation Engineer',
        essential: ['Playwright', 'TypeScript'],
        bonus: ['CI/CD'],
        experienceMin: 2,
        salary: [50000, 65000],
        location: 'Remote (EU)',
        remote: 'remote',
      },
      {
        title: 'Security Engineer',
        essential: ['Cloud security', 'AWS'],
        bonus: ['Terraform', 'Go'],
        experienceMin: 5,
        salary: [80000, 100000],
        location: 'Amsterdam',
        remote: 'hybrid',
      },
    ],
  },
  {
    team: 'Helios Health',
    slug: 'helios-health-engineering',
    headline: 'Helios Health engineering open day',
    description: 'Software that gets patients seen sooner: scheduling, records and telehealth.',
    accent: '#b45309',
    slots: 2,
    owner: person('Radia Perlman', 'Head of People', 'sim.demo.jobfair.local'),
    simulatedRecruiter: person('Annie Easley', 'Recruiter', 'sim.demo.jobfair.local'),
    availability: { owner: { available: true, capacity: 1 }, simulatedRecruiter: { available: true, capacity: 1 } },
    jobs: [
      {
        title: 'Full-Stack Engineer (Scheduling)',
        essential: ['TypeScript', 'React'],
        bonus: ['Node.js', 'PostgreSQL'],
        experienceMin: 3,
        salary: [70000, 90000],
        location: 'Berlin',
        remote: 'hybrid',
      },
      {
        title: 'Backend Engineer (Patient Records)',
        essential: ['Python', 'PostgreSQL'],
        bonus: ['FHIR', 'Django'],
        experienceMin: 4,
        salary: [72000, 92000],
        location: 'Berlin',
        remote: 'hybrid',
      },
      {
        title: 'Machine Learning Engineer (Triage)',
        essential: ['Python', 'PyTorch'],
        bonus: ['MLOps', 'SQL'],
        experienceMin: 4,
        salary: [85000, 110000],
        location: 'Remote (Germany)',
        remote: 'remote',
      },
      {
        title: 'iOS Engineer (Telehealth)',
        essential: ['Swift', 'iOS'],
        bonus: ['WebRTC'],
        experienceMin: 3,
        salary: [70000, 88000],
        location: 'Munich',
        remote: 'onsite',
      },
      {
        title: 'Infrastructure Engineer',
        essential: ['Kubernetes', 'Terraform', 'AWS'],
        bonus: ['Go'],
        experienceMin: 4,
        salary: [80000, 100000],
        location: 'Berlin',
        remote: 'hybrid',
      },
    ],
  },
];

const seeker = (
  name: string,
  title: string,
  skills: string[],
  years: number,
  location: string,
  remote: DemoSeeker['remote'],
): DemoSeeker => ({
  ...person(name, title, 'sim.demo.jobfair.local'),
  summary: `${title} with ${years} years of experience.`,
  skills,
  years,
  location,
  remote,
});

/** Simulated seekers: their agents join the queues over time (one per simulator step). */
export const DEMO_SIMULATED_SEEKERS: DemoSeeker[] = [
  seeker('Alan Turing', 'Backend Engineer', ['Go', 'PostgreSQL', 'Kubernetes'], 6, 'London', 'hybrid'),
  seeker('Barbara Liskov', 'Staff Engineer', ['TypeScript', 'Compilers', 'Rust'], 12, 'Remote', 'fully_remote'),
  seeker('Edsger Dijkstra', 'Platform Engineer', ['Kafka', 'Java', 'Kubernetes'], 9, 'Amsterdam', 'hybrid'),
  seeker('Frances Allen', 'Compiler Engineer', ['Rust', 'LLVM', 'C++'], 7, 'Cambridge', 'onsite'),
  seeker('Hedy Lamarr', 'Full-Stack Engineer', ['TypeScript', 'React', 'Node.js'], 4, 'Berlin', 'hybrid'),
  seeker('John Backus', 'Data Engineer', ['Python', 'SQL', 'Airflow'], 5, 'Rotterdam', 'onsite'),
  seeker('Karen Sparck Jones', 'Machine Learning Engineer', ['Python', 'PyTorch', 'SQL'], 6, 'Remote', 'fully_remote'),
  seeker('Ken Thompson', 'Site Reliability Engineer', ['Kubernetes', 'Terraform', 'Go'], 10, 'London', 'hybrid'),
  seeker('Lynn Conway', 'Infrastructure Engineer', ['Kubernetes', 'Terraform', 'AWS'], 8, 'Berlin', 'hybrid'),
  seeker('Mary Kenneth Keller', 'Node.js Engineer', ['Node.js', 'TypeScript', 'PostgreSQL'], 5, 'Amsterdam', 'hybrid'),
];

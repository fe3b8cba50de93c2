# One image for both processes: `api` runs apps/api, `worker` runs apps/worker (see docker-compose.yml).
FROM node:22-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
EXPOSE 3000
CMD ["npx", "tsx", "apps/api/src/server.ts"]

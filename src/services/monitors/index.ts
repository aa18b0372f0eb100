// Monitors (CONTRACT.md section 8): the service the API and the web pages use. Scheduling: src/jobs/monitor-scheduler.ts.
export {
  createMonitorsService,
  type CreateMonitorInput,
  type MonitorsService,
  type MonitorView,
  type UpdateMonitorInput,
} from './service.js';

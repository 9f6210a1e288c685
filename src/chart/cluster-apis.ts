// APIs of the cluster that the chart renders objects of only when the render declares them
// (`--api-versions`): the components ask the render context's capabilities, the lint rules warn
// when an object is asked for and its API was not declared. One constant, read by both.

/** The Prometheus operator's API: a ServiceMonitor renders only when it is declared. */
export const MONITORING_API = 'monitoring.coreos.com/v1';

/** OpenShift's Route API: the platform Route renders only when it is declared. */
export const ROUTE_API = 'route.openshift.io/v1';

import faultTeardown from '../faults/global-teardown';

export default faultTeardown;

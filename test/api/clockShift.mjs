// Loaded into a test server (StartOptions.clockShiftSeconds): the process's clock runs
// CEV_TEST_CLOCK_SHIFT_SECONDS off, as a machine's whose clock was set back, or an instance's
// whose clock is behind the others'. The server stamps every record with Date.now().
const shift = Number(process.env.CEV_TEST_CLOCK_SHIFT_SECONDS ?? 0) * 1000;
const now = Date.now.bind(Date);
Date.now = () => now() + shift;

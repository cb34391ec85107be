import v8 from "node:v8";
v8.setFlagsFromString(process.env.FLAGS);
const { runSimulation } = await import("@ectp/simulator");
const { summary } = await runSimulation({ faults: "light", requests: Number(process.argv[2]), seed: 1 });
console.log(process.env.FLAGS, process.argv[2], summary.wallTimeMs.toFixed(0), (process.cpuUsage().user/1000).toFixed(0), (process.resourceUsage().maxRSS / 1024).toFixed(1), v8.getHeapSpaceStatistics().find(s=>s.space_name==="new_space").space_size/1048576);

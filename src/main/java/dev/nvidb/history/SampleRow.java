package dev.nvidb.history;

import java.time.Instant;

/**
 * One GPU at one sample. Every metric is nullable: null means the driver could not say.
 *
 * @param at         when the probe began
 * @param processes  processes holding a context on the GPU at that moment
 */
public record SampleRow(Instant at, String node, int gpu, String gpuName, String uuid, Integer utilPercent,
                        Integer memUtilPercent, Long memUsedMb, Long memTotalMb, Integer temperatureC, Double powerW,
                        Double powerLimitW, int processes) {
}

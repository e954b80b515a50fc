# Arbor's container image: built from source with the Maven wrapper, run from Spring Boot's extracted layers on a JRE,
# with a cache of its start-up classes trained at build (an AOT cache on Java 25+, a CDS archive on Java 21 to 24).
#
#   docker build -t arbor .
#   docker run -p 8080:8080 -v arbor-data:/data arbor
#
# Both bases are arguments so that the image can also be built from locally provided ones (scripts/container-test.sh
# builds Debian stand-ins where Docker Hub is out of reach). Any JDK 17+ builds Arbor; the runtime must be Java 21+,
# since virtual threads are on, and Java 25+ gets the better cache. A base needs a shell, grep, groupadd/useradd
# (Debian and Ubuntu have all three) and, for the build stage, CA certificates for Maven Central. No BuildKit-only
# syntax, so the classic builder builds it too.
ARG BUILD_IMAGE=eclipse-temurin:21-jdk
ARG RUNTIME_IMAGE=eclipse-temurin:25-jre

FROM ${BUILD_IMAGE} AS build
WORKDIR /build

# The HEALTHCHECK probe: a class using java.base only, run by the runtime's own java. A JRE base promises no curl or
# wget (slim and distroless ones have neither), and a probe in exec form needs no shell either; the cost is a JVM
# start per probe, about a quarter of a second of one core. Compiled for 17, which any runtime the image allows runs.
COPY docker/HealthCheck.java /healthcheck/
RUN javac --release 17 -d /healthcheck /healthcheck/HealthCheck.java

# The wrapper and the POM alone first: Maven and the dependencies download into a layer of their own, which a change
# under src/ does not invalidate. go-offline misses a few artifacts resolved only during the build (the
# annotation processors, for one); the package step fetches those.
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
RUN ./mvnw -B -q dependency:go-offline

# .dockerignore leaves out src/test and src/jmh: the image needs neither, and a change to a test rebuilds nothing.
COPY src/ src/
# Extracted without Boot's launcher: a plain jar whose manifest lists lib/*.jar, the class path a JVM cache can hold
# (classes read by the launcher from nested jars are not cached).
RUN ./mvnw -B -q -DskipTests package \
 && java -Djarmode=tools -jar target/*.jar extract --layers --application-filename arbor.jar --destination /extracted


FROM ${RUNTIME_IMAGE}

# A fixed, unprivileged uid/gid above the bases' own users (Ubuntu's images have `ubuntu` at 1000), so a volume's files
# have the same owner whichever base built the image. /data belongs to it before VOLUME: a new named volume is
# initialized from the image, owner included, so Arbor can write there without running as root.
RUN groupadd --gid 10001 arbor \
 && useradd --uid 10001 --gid arbor --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin arbor \
 && mkdir -p /data/sessions \
 && chown -R arbor:arbor /data
VOLUME /data

WORKDIR /app
COPY --from=build /healthcheck/HealthCheck.class /opt/healthcheck/
# Spring Boot's layers, the least likely to change first: a code change rebuilds only the small application layer
# (and the cache below), and a registry stores and a host pulls only those. Owned by root, so the application cannot
# modify its own code.
COPY --from=build /extracted/dependencies/ ./
COPY --from=build /extracted/snapshot-dependencies/ ./
COPY --from=build /extracted/application/ ./

# The start-up cache, trained on this runtime's own JVM: a cache serves only the JVM that wrote it, with the
# same class path (/app/arbor.jar, absolute, as ENTRYPOINT gives it). The training run starts Arbor on a scratch
# folder and stops once the context is refreshed (Spring's spring.context.exit=onRefresh): every bean is made, nothing
# listens, /data is not touched. Java 25+ writes an AOT cache (JEP 483, 514, 515: classes loaded and linked, method
# profiles for the JIT); older ones a CDS archive, on top of the JDK's own (dumped first where the base has none).
# ENTRYPOINT reads the option that uses the cache from /app/java.args, a java @argfile. A JVM that cannot use the
# cache (another GC chosen for a small container, say) says so and starts without it.
RUN set -e; \
    if java -XX:+PrintFlagsFinal -version 2>/dev/null | grep -q ' AOTCacheOutput '; then \
      train=-XX:AOTCacheOutput=/app/arbor.aot; use=-XX:AOTCache=/app/arbor.aot; \
    else \
      java -Xshare:on -version >/dev/null 2>&1 || java -Xshare:dump >/dev/null; \
      train=-XX:ArchiveClassesAtExit=/app/arbor.jsa; use=-XX:SharedArchiveFile=/app/arbor.jsa; \
    fi; \
    java "$train" -Dspring.context.exit=onRefresh -jar /app/arbor.jar --arbor.storage.dir=/tmp/arbor-training \
      --logging.level.root=WARN >/tmp/arbor-training.log 2>&1 || { tail -n 50 /tmp/arbor-training.log; exit 1; }; \
    echo "$use" >/app/java.args; \
    rm -rf /tmp/arbor-training /tmp/arbor-training.log

# The JVM sizes its heap from the container's memory limit; its default of a quarter suits a shared host, not a
# container that runs one JVM: three quarters, leaving the rest for metaspace, code cache, buffers and the health
# probe's short-lived JVM. On OutOfMemoryError, exit and let the restart policy replace the process rather than limp
# on. JAVA_TOOL_OPTIONS rather than ENTRYPOINT arguments, so that `-e JAVA_TOOL_OPTIONS=...` replaces them.
ENV ARBOR_STORAGE_DIR=/data/sessions \
    SERVER_PORT=8080 \
    SPRING_THREADS_VIRTUAL_ENABLED=true \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError"

USER arbor
EXPOSE 8080

# Readiness, not liveness: healthy means able to serve, storage included (the readiness group checks the storage
# directory). The probe's JVM gets a small heap and no optimizing compiler: it lives for one request. The start period
# covers Arbor's own start (4 to 20 s on 2 cores shared with other work, with the cache; docs/BENCHMARKS.md).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["java", "-Xmx16m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", "/opt/healthcheck", "HealthCheck"]

# Exec form: java is PID 1 and gets docker stop's SIGTERM itself, so Boot shuts down gracefully (in-flight requests
# finish; appends are on disk when acknowledged). Boot waits up to 30 s, Docker kills after 10 s unless told otherwise
# (`docker run --stop-timeout`, compose's stop_grace_period, as in docker-compose.yml).
ENTRYPOINT ["java", "@/app/java.args", "-jar", "/app/arbor.jar"]

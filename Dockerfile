# Arbor's container image: built from source with the Maven wrapper, run from Spring Boot's extracted layers on a JRE.
#
#   docker build -t arbor .
#   docker run -p 8080:8080 -v arbor-data:/data arbor
#
# Both bases are arguments so that the image can also be built from locally provided ones (scripts/container-test.sh
# builds Debian stand-ins where Docker Hub is out of reach). Any JDK 17+ builds Arbor; the runtime must be Java 21+,
# since virtual threads are on. A base needs a shell, groupadd/useradd (Debian and Ubuntu have both) and, for the
# build stage, CA certificates for Maven Central. No BuildKit-only syntax, so the classic builder builds it too.
ARG BUILD_IMAGE=eclipse-temurin:21-jdk
ARG RUNTIME_IMAGE=eclipse-temurin:21-jre

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
RUN ./mvnw -B -q -DskipTests package \
 && java -Djarmode=tools -jar target/*.jar extract --layers --launcher --destination /extracted


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
# Spring Boot's layers, the least likely to change first: a code change rebuilds only the small application layer,
# and a registry stores and a host pulls only that. Owned by root, so the application cannot modify its own code.
COPY --from=build /extracted/dependencies/ ./
COPY --from=build /extracted/spring-boot-loader/ ./
COPY --from=build /extracted/snapshot-dependencies/ ./
COPY --from=build /extracted/application/ ./

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
# covers Arbor's own start (about 6 s on 2 cores).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["java", "-Xmx16m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", "/opt/healthcheck", "HealthCheck"]

# Exec form: java is PID 1 and gets docker stop's SIGTERM itself, so Boot shuts down gracefully (in-flight requests
# finish; appends are on disk when acknowledged). Boot waits up to 30 s, Docker kills after 10 s unless told otherwise
# (`docker run --stop-timeout`, compose's stop_grace_period, as in docker-compose.yml).
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]

package io.hotpathbench.validation;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * The request bean of a pickup-point recommendation call, shaped like the map service's: the
 * caller's coordinates, a six-digit city code, the user id and the waypoints of the trip, each
 * validated through {@code @Valid}. Fifteen constraints in all (eight here, seven per waypoint).
 */
public final class PickupRequest {

    @NotNull
    @DecimalMin("-90")
    @DecimalMax("90")
    private Double lat;

    @NotNull
    @DecimalMin("-180")
    @DecimalMax("180")
    private Double lng;

    @NotBlank
    @Pattern(regexp = "\\d{6}")
    private String cityCode;

    @NotNull
    @Positive
    private Long userId;

    @NotNull
    @Size(min = 1, max = 8)
    private List<@Valid Waypoint> waypoints;

    public PickupRequest() {
    }

    public PickupRequest(Double lat, Double lng, String cityCode, Long userId, List<Waypoint> waypoints) {
        this.lat = lat;
        this.lng = lng;
        this.cityCode = cityCode;
        this.userId = userId;
        this.waypoints = waypoints;
    }

    public Double getLat() {
        return lat;
    }

    public void setLat(Double lat) {
        this.lat = lat;
    }

    public Double getLng() {
        return lng;
    }

    public void setLng(Double lng) {
        this.lng = lng;
    }

    public String getCityCode() {
        return cityCode;
    }

    public void setCityCode(String cityCode) {
        this.cityCode = cityCode;
    }

    public Long getUserId() {
        return userId;
    }

    public void setUserId(Long userId) {
        this.userId = userId;
    }

    public List<Waypoint> getWaypoints() {
        return waypoints;
    }

    public void setWaypoints(List<Waypoint> waypoints) {
        this.waypoints = waypoints;
    }
}

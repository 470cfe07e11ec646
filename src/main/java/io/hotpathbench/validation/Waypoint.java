package io.hotpathbench.validation;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

/** One stop on the way to a pickup point: a POI id and its coordinates, validated through {@code @Valid}. */
public final class Waypoint {

    @NotBlank
    private String poiId;

    @NotNull
    @DecimalMin("-90")
    @DecimalMax("90")
    private Double lat;

    @NotNull
    @DecimalMin("-180")
    @DecimalMax("180")
    private Double lng;

    public Waypoint() {
    }

    public Waypoint(String poiId, Double lat, Double lng) {
        this.poiId = poiId;
        this.lat = lat;
        this.lng = lng;
    }

    public String getPoiId() {
        return poiId;
    }

    public void setPoiId(String poiId) {
        this.poiId = poiId;
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
}
